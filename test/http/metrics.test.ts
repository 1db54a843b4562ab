/**
 * GET /metrics after real traffic: the real service (startService: HTTP, portal, RADIUS) is used
 * over HTTP and radclient, then scraped; the counters say what happened, by route pattern (never
 * the raw URL), login method, RADIUS result and reason. Then who may scrape: a bearer token when
 * METRICS_TOKEN is set, else clients on this machine only (the socket's address, whatever
 * X-Forwarded-For says). And the rejects and drops the RADIUS log tells, at a bounded rate.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { createMetrics } from "../../src/metrics.js";
import { LINES_PER_MINUTE, RadiusEvents } from "../../src/radius/radius-events.js";
import { type RunningService, startService } from "../../src/server.js";
import { type TestApp, createTestApp, locationParams, testAppOf } from "../helpers/app.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";
import { PortalClient, coovaUrl, makeWorld, stateOf } from "../portal/portal-world.js";
import { radclient } from "../radius/radclient.js";
import { countsAt, radclientCounted } from "../radius/radius-counts.js";

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^([^{\s]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

for (const dialect of DIALECTS) {
  describe(`GET /metrics after real traffic (${dialect})`, () => {
    let tdb: TestDb;
    let service: RunningService;
    let t: TestApp;
    let base: string;
    const lines: string[] = [];

    before(async () => {
      tdb = await createTestDb(dialect);
      const databaseUrl = dialect === "postgres" ? `${tdb.url}?options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}` : tdb.url;
      const config = loadConfig({
        DATABASE_URL: databaseUrl, HOST: "127.0.0.1", PORT: "0", PUBLIC_URL: "http://portal.test",
        RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0", LOG_LEVEL: "info",
      });
      service = await startService(config, { logger: { level: "info", stream: { write: (line: string) => void lines.push(line) } } });
      base = `http://127.0.0.1:${service.httpPort}`;
      t = await testAppOf({ ...tdb, db: service.db }, service.app, config);
    });
    after(async () => {
      await service?.stop();
      await tdb?.close();
    });

    it("counts HTTP requests by route pattern and status, portal logins by method, RADIUS accepts, rejects and drops, accounting writes", async () => {
      const id = t.identifier;
      const created = await fetch(`${base}/api/create-or-update-location`, {
        method: "POST",
        headers: { "content-type": "application/json", identifier: id },
        body: JSON.stringify(locationParams()),
      });
      assert.equal(created.status, 200);
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/api/location-list?identifier=${id}`)).status, 200);
      assert.equal((await fetch(`${base}/api/location-list?identifier=wrong-${id}`)).status, 400);
      assert.equal((await fetch(`${base}/no/such/page-${id}`)).status, 404);

      // A guest logs in through the portal behind a CoovaChilli gateway; the gateway then asks RADIUS.
      const w = await makeWorld(t, { redirect_url: "" });
      const apSecret = (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", w.deviceId).executeTakeFirstOrThrow()).radius_secret;
      const guestMac = "0A:1B:2C:3D:4E:5F";
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: guestMac }));
      const login = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "Ann Example", email: "ann@example.com" });
      assert.equal(login.statusCode, 303, login.body);
      const other = new PortalClient(t.app);
      const otherPage = await other.get(coovaUrl(w.url, { called: w.apMac, mac: "0A:1B:2C:3D:4E:60" }));
      const invalid = await other.post("/portal/login/custom", { state: stateOf(otherPage.body), name: "", email: "not an address" });
      assert.equal(invalid.statusCode, 400, invalid.body);
      const refused = await client.post("/portal/login/custom", { state: "forged" });
      assert.notEqual(refused.statusCode, 303);
      const username = new URL(login.location!).searchParams.get("username")!;
      const cred = await t.db.selectFrom("portal_credentials").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
      const dashed = (m: string) => m.replaceAll(":", "-");
      const request = (user: string, password: string) => [
        `User-Name = "${user}"`,
        `User-Password = "${password}"`,
        `Called-Station-Id = "${dashed(w.apMac)}"`,
        `Calling-Station-Id = "${dashed(guestMac)}"`,
        "Message-Authenticator = 0x00",
      ];
      assert.equal((await radclient(service.radius!.authPort, "auth", apSecret, request(username, cred.password))).code, "Access-Accept");
      // The same credential again: used once already.
      const again = await radclient(service.radius!.authPort, "auth", apSecret, request(username, cred.password));
      assert.equal(again.code, "Access-Reject");
      // Dropped, as the service counts it (not waited out): radclient stops once it is counted.
      const wrongSecret = await radclientCounted(countsAt(`${base}/metrics`), service.radius!.authPort, "auth", "not-the-secret-at-all", request(username, cred.password));
      assert.deepEqual([wrongSecret.code, wrongSecret.counted], [undefined, { drop: 1, error: 0, other: 0 }], "dropped");
      const acct = await radclient(service.radius!.acctPort, "acct", apSecret, ["Acct-Status-Type = Start", 'Acct-Session-Id = "m-1"', `User-Name = "${username}"`, `Called-Station-Id = "${dashed(w.apMac)}"`]);
      assert.equal(acct.code, "Accounting-Response", acct.output);

      const res = await fetch(`${base}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      const http = (route: string, status: string, method = "GET") => sample(text, "guestwifi_http_request_duration_seconds_count", { method, route, status });
      assert.equal(http("/api/location-list", "200"), 3);
      assert.equal(http("/api/location-list", "400"), 1);
      assert.ok((http("/api/create-or-update-location", "200", "POST") ?? 0) >= 1, "ours (and makeWorld's, through inject)");
      assert.equal(http("(unmatched)", "404"), 1);
      assert.ok((sample(text, "guestwifi_http_request_duration_seconds_bucket", { route: "/api/location-list", status: "200", le: "+Inf" }) ?? 0) === 3);
      assert.ok(!text.includes(id), "no identifier (raw URL) in any label");
      assert.ok(!text.includes("page-"), "no raw path of an unmatched request");
      assert.equal(sample(text, "guestwifi_portal_logins_total", { method: "custom", result: "success" }), 1);
      assert.equal(sample(text, "guestwifi_portal_logins_total", { method: "custom", result: "refused" }), 1);
      assert.equal(sample(text, "guestwifi_portal_logins_total", { method: "custom", result: "invalid" }), 1);
      assert.equal(sample(text, "guestwifi_radius_requests_total", { type: "access", result: "accept" }), 1);
      assert.equal(sample(text, "guestwifi_radius_requests_total", { type: "access", result: "reject", reason: "credential already used" }), 1);
      assert.equal(sample(text, "guestwifi_radius_requests_total", { type: "access", result: "drop", reason: "bad Message-Authenticator" }), 1);
      assert.equal(sample(text, "guestwifi_radius_requests_total", { type: "accounting", result: "accounted" }), 1);
      assert.equal(sample(text, "guestwifi_radius_accounting_writes_total", { result: "committed" }), 1);
      assert.ok((sample(text, "nodejs_eventloop_lag_seconds") ?? -1) >= 0, "event-loop lag");
      assert.ok((sample(text, "process_resident_memory_bytes") ?? 0) > 0);
      if (dialect === "postgres") {
        assert.equal(sample(text, "guestwifi_db_pool_connections", { state: "max" }), 10);
        assert.ok((sample(text, "guestwifi_db_pool_connections", { state: "total" }) ?? 0) >= 1);
        assert.equal(sample(text, "guestwifi_db_pool_waiting"), 0);
      } else {
        assert.equal(sample(text, "guestwifi_db_pool_connections", { state: "total" }), undefined, "no pool on SQLite");
      }

      // The reject and the drop were logged at info with their reason; the credential's name was not.
      const logged = lines.map((l) => JSON.parse(l));
      const reject = logged.find((l) => l.msg === "radius access rejected");
      assert.equal(reject?.level, 30);
      assert.equal(reject?.reason, "credential already used");
      assert.equal(reject?.userName, "[redacted]");
      const drop = logged.find((l) => l.msg === "radius packet dropped");
      assert.equal(drop?.reason, "bad Message-Authenticator");
      assert.equal(drop?.type, "access");
    });
  });
}

describe("who may scrape /metrics", () => {
  let open: TestApp;
  let guarded: TestApp;
  const TOKEN = "metrics-token-0123456789";
  before(async () => {
    open = await createTestApp("sqlite", { TRUST_PROXY: "true" });
    guarded = await createTestApp("sqlite", { METRICS_TOKEN: TOKEN });
  });
  after(async () => {
    await open.close();
    await guarded.close();
  });

  it("without METRICS_TOKEN: loopback clients only, by the socket's address, and not through a proxy", async () => {
    for (const remoteAddress of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) {
      assert.equal((await open.app.inject({ method: "GET", url: "/metrics", remoteAddress })).statusCode, 200, remoteAddress);
    }
    const far = await open.app.inject({ method: "GET", url: "/metrics", remoteAddress: "192.0.2.7" });
    assert.equal(far.statusCode, 403);
    assert.deepEqual(far.json(), { status: "error", message: { request: ["The metrics answer only clients on this machine. Set METRICS_TOKEN to scrape them from elsewhere."] } });
    // TRUST_PROXY believes the header for request.ip; the metrics do not.
    const forged = await open.app.inject({ method: "GET", url: "/metrics", remoteAddress: "192.0.2.7", headers: { "x-forwarded-for": "127.0.0.1" } });
    assert.equal(forged.statusCode, 403);
    // A proxy on this machine forwarding a remote client: its socket is loopback, the client is not.
    for (const headers of [{ "x-forwarded-for": "192.0.2.7" }, { forwarded: "for=192.0.2.7" }, { "x-real-ip": "192.0.2.7" }]) {
      assert.equal((await open.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1", headers })).statusCode, 403, JSON.stringify(headers));
    }
  });

  it("with METRICS_TOKEN: the bearer token, from anywhere; 401 in the API's shape otherwise", async () => {
    const ok = await guarded.app.inject({ method: "GET", url: "/metrics", remoteAddress: "192.0.2.7", headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /guestwifi_http_request_duration_seconds/);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, "Bearer", TOKEN]) {
      const res = await guarded.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1", headers: authorization ? { authorization } : {} });
      assert.equal(res.statusCode, 401, String(authorization));
      assert.equal(res.headers["www-authenticate"], 'Bearer realm="metrics"');
      assert.deepEqual(res.json(), { status: "error", message: { authorization: ["The metrics token is missing or wrong. Send Authorization: Bearer <METRICS_TOKEN>."] } });
    }
  });

  it("two apps in one process count apart", async () => {
    await open.call("GET", "location-list");
    const a = (await open.app.inject({ method: "GET", url: "/metrics" })).body;
    const b = (await guarded.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })).body;
    assert.ok((sample(a, "guestwifi_http_request_duration_seconds_count", { route: "/api/location-list", status: "200" }) ?? 0) >= 1);
    assert.equal(sample(b, "guestwifi_http_request_duration_seconds_count", { route: "/api/location-list", status: "200" }), undefined);
  });

  it("refuses a short METRICS_TOKEN at start", () => {
    assert.throws(() => loadConfig({ METRICS_TOKEN: "short" }), /METRICS_TOKEN must be 16 to 256 characters/);
  });
});

describe("RADIUS rejects and drops in the log", () => {
  it("at most LINES_PER_MINUTE lines per reason a minute, then one line with the count held back", () => {
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = { info: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }) } as never;
    let now = 1_000_000;
    const metrics = createMetrics();
    const events = new RadiusEvents(metrics, log, () => now);
    for (let i = 0; i < 25; i++) events.reject("unknown user", { deviceId: 1 });
    for (let i = 0; i < 3; i++) events.drop("accounting", "unknown access point");
    const rejects = () => logged.filter((l) => l.obj.reason === "unknown user");
    assert.equal(rejects().length, LINES_PER_MINUTE);
    assert.equal(logged.filter((l) => l.obj.reason === "unknown access point").length, 3, "reasons are limited apart");
    events.flush();
    assert.equal(rejects().length, LINES_PER_MINUTE, "nothing reported before the minute is over");
    now += 60_000;
    events.flush();
    const summary = logged.at(-1)!;
    assert.deepEqual(summary.obj, { event: "reject", reason: "unknown user", suppressed: 15 });
    events.reject("unknown user", { deviceId: 1 });
    assert.equal(rejects().at(-1)!.obj.suppressedBefore, undefined, "already reported");
    for (let i = 0; i < 11; i++) events.reject("unknown user", { deviceId: 1 });
    now += 61_000;
    events.reject("unknown user", { deviceId: 1 });
    assert.equal(rejects().at(-1)!.obj.suppressedBefore, 2, "told on the next line when no flush came first");
  });
});
