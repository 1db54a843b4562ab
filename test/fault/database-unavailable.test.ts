/**
 * No hung requests: with PostgreSQL silent (a proxy that stops forwarding) and with it stopped,
 * every request (API read and write, portal page, /healthz) ends within the configured timeouts
 * with a 503 in the API's error shape (the portal: its error page); RADIUS stays silent (the NAS
 * retries) and logs it; the process survives and serves again once the database is back.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type PrivatePostgres, startPrivatePostgres } from "../helpers/private-postgres.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { type SilentProxy, startProxy } from "../helpers/tcp-proxy.js";
import { type Probe, apiCall, apiPost, probe, radiusFails, registerDevice, timeUntilServing } from "./service-probes.js";

/** The timeouts the service runs with here; a request may wait on a couple of them in turn. */
const TIMEOUTS = { DB_ACQUIRE_TIMEOUT_MS: "1000", DB_CONNECT_TIMEOUT_MS: "1000", DB_STATEMENT_TIMEOUT_MS: "1500" };
const BOUND_MS = 7_000;
const LOCATION = {
  location_name: "Fault Cafe", address1: "1 Main St", town: "Springfield", state: "IL", zipcode: "62701",
  country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago",
};

function assertUnavailable(name: string, r: Probe): void {
  assert.notEqual(r.status, 0, `${name}: no answer within ${BOUND_MS} ms`);
  assert.ok(r.ms <= BOUND_MS, `${name}: took ${r.ms} ms`);
  assert.equal(r.status, 503, `${name}: ${r.status} ${JSON.stringify(r.body)}`);
}

function assertApiShape(name: string, r: Probe): void {
  assertUnavailable(name, r);
  assert.equal(r.body?.status, "error", `${name}: ${JSON.stringify(r.body)}`);
  const messages = Object.values(r.body.message as Record<string, unknown>);
  assert.ok(messages.length > 0 && messages.every((m) => Array.isArray(m) && m.every((s) => typeof s === "string")), JSON.stringify(r.body));
}

describe("requests while PostgreSQL is unavailable (private server)", () => {
  let pg: PrivatePostgres;
  let proxy: SilentProxy;
  let svc: ServiceProcess;
  let ap: { mac: string; secret: string };
  let portalUrl: string;
  before(async () => {
    pg = await startPrivatePostgres();
    proxy = await startProxy(pg.port);
    svc = await startServiceProcess({ DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, LOG_LEVEL: "warn", ...TIMEOUTS });
    ap = await registerDevice(svc);
    const loc = await apiPost(svc, "create-or-update-location", LOCATION);
    assert.equal(loc.status, 200, JSON.stringify(loc.body));
    const id = loc.body.location_id ?? loc.body.data?.id;
    const got = await apiCall(svc, "get-location", { location_ids: String(id) });
    portalUrl = `${svc.httpUrl}${new URL(got.body.data[0].url).pathname}`;
    assert.equal((await probe(portalUrl, { headers: { accept: "text/html" } })).status, 200);
  });
  after(async () => {
    await svc?.stop();
    await proxy?.close();
    await pg?.destroy();
  });

  /** Every kind of request, at once, as they would arrive. */
  async function everyRequest(): Promise<void> {
    const [health, read, write, page, radius] = await Promise.all([
      probe(`${svc.httpUrl}/healthz`, {}, BOUND_MS + 3000),
      apiCall(svc, "location-list", {}, BOUND_MS + 3000),
      apiPost(svc, "create-or-update-location", { ...LOCATION, location_name: "During the fault" }, BOUND_MS + 3000),
      probe(portalUrl, { headers: { accept: "text/html" } }, BOUND_MS + 3000),
      radiusFails(svc, ap),
    ]);
    assertApiShape("healthz", health);
    assert.deepEqual(Object.keys(health.body.message), ["database"]);
    assertApiShape("location-list", read);
    assertApiShape("create-or-update-location", write);
    // The login page needs no database when this instance holds its location and campaign (the
    // catalogue cache, whose rows PostgreSQL announces changes of) and the page-view limit counts in
    // memory while the shared count is late: it may be served. Otherwise the portal's own error page.
    assert.notEqual(page.status, 0, `portal page: no answer within ${BOUND_MS} ms`);
    assert.ok(page.ms <= BOUND_MS, `portal page: took ${page.ms} ms`);
    if (page.status === 200) assert.match(String(page.body), /<form method="post" action="\/portal\/login\//, "the login page from memory");
    else {
      assertUnavailable("portal page", page);
      assert.match(String(page.body), /<html[\s\S]*Please try again/i, "the portal's own error page");
    }
    assert.deepEqual(radius, [], "RADIUS does not answer without its database (counted as failed, not waited out)");
    assert.equal(svc.exited(), undefined, "the process survives");
  }

  it("silent database: every request ends within the timeouts with 503", async () => {
    proxy.silence();
    try {
      await everyRequest();
      // Twice: the second round finds the pool's connections already given up on.
      await everyRequest();
    } finally {
      proxy.resume();
    }
    assert.match(svc.output(), /radius request failed/, "RADIUS logged the fault");
    const ms = await timeUntilServing(svc, ap, 5_000);
    console.log(`serving ${ms} ms after the silent database answered again`);
  });

  it("stopped database: every request ends at once with 503", async () => {
    await pg.stop();
    try {
      await everyRequest();
    } finally {
      await pg.start();
    }
    const ms = await timeUntilServing(svc, ap, 5_000);
    console.log(`serving ${ms} ms after the stopped database started again`);
  });
});
