/**
 * A PostgreSQL restart (a private server: never the shared one) while the service is idle and while
 * it is under load: the service's process survives, logs the lost connections, and serves HTTP and
 * RADIUS again within 5 s of the database being back, without anyone restarting it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type PrivatePostgres, startPrivatePostgres } from "../helpers/private-postgres.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { apiCall, probe, radiusAnswers, registerDevice, serves, timeUntilServing } from "./service-probes.js";

const RECOVERY_LIMIT_MS = 5_000;

describe("a PostgreSQL restart (private server)", () => {
  let pg: PrivatePostgres;
  let svc: ServiceProcess;
  let ap: { mac: string; secret: string };
  before(async () => {
    pg = await startPrivatePostgres();
    svc = await startServiceProcess({ DATABASE_URL: pg.url, LOG_LEVEL: "warn" });
    ap = await registerDevice(svc);
  });
  after(async () => {
    await svc?.stop();
    await pg?.destroy();
  });

  it("while idle: the process survives and serves again within 5 s", async () => {
    // Fill the pool with idle connections for PostgreSQL to terminate.
    await Promise.all(Array.from({ length: 8 }, () => apiCall(svc, "location-list")));
    assert.equal(await serves(svc, ap), true, "serving before the restart");
    await pg.restart();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(svc.exited(), undefined, `the process is still running:\n${svc.output().slice(-3000)}`);
    const ms = await timeUntilServing(svc, ap, RECOVERY_LIMIT_MS);
    console.log(`recovered ${ms} ms after an idle restart`);
    assert.ok(ms <= RECOVERY_LIMIT_MS);
    assert.match(svc.output(), /database connection/i, "the lost connections were logged");
  });

  it("under load: the process survives, every request ends, and it serves again within 5 s", async () => {
    let running = true;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (running) {
        const r = await apiCall(svc, "location-list", {}, 20_000);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        await radiusAnswers(svc, ap, 200);
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await new Promise((r) => setTimeout(r, 500));
    await pg.stop();
    await new Promise((r) => setTimeout(r, 1000));
    await pg.start();
    const ms = await timeUntilServing(svc, ap, RECOVERY_LIMIT_MS);
    console.log(`recovered ${ms} ms after a restart under load; HTTP statuses during the run: ${JSON.stringify([...statuses])}`);
    running = false;
    await Promise.all(workers);
    assert.equal(svc.exited(), undefined, "the process is still running");
    assert.equal(statuses.get(0), undefined, "no request went unanswered");
    for (const status of statuses.keys()) assert.ok(status === 200 || status === 503, `status ${status}`);
    assert.equal((await probe(`${svc.httpUrl}/healthz`)).status, 200);
  });
});
