/**
 * A PostgreSQL restart (a private server: never the shared one) while the service is idle and while
 * it is under load: the service's process survives, logs the lost connections, and serves HTTP and
 * RADIUS again once the database is back (within 5 s on an idle machine; the time is printed), without
 * anyone restarting it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type PrivatePostgres, startPrivatePostgres } from "../helpers/private-postgres.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { apiCall, probe, radiusAnswers, registerDevice, timeUntilServing } from "./service-probes.js";
import { waitUntil } from "../helpers/wait.js";

/**
 * A bound for the test, not the figure: recovery takes well under 5 s on an idle machine (printed
 * below), but a wall-clock limit that tight failed at a load of 50 on two cores (issue 22 point 9).
 */
const RECOVERY_LIMIT_MS = 60_000;

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

  it("while idle: the process survives and serves again without a restart", async () => {
    // Fill the pool with idle connections for PostgreSQL to terminate.
    await Promise.all(Array.from({ length: 8 }, () => apiCall(svc, "location-list")));
    await timeUntilServing(svc, ap, 60_000); // serving before the restart
    await pg.restart();
    // Survival is proven by serving again: timeUntilServing fails at once if the process exits.
    const ms = await timeUntilServing(svc, ap, RECOVERY_LIMIT_MS);
    assert.equal(svc.exited(), undefined, `the process is still running:\n${svc.output().slice(-3000)}`);
    console.log(`recovered ${ms} ms after an idle restart`);
    assert.match(svc.output(), /database connection/i, "the lost connections were logged");
  });

  it("under load: the process survives, every request ends, and it serves again without a restart", async () => {
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
    const answered = (pred: (status: number) => boolean) => [...statuses].filter(([status]) => pred(status)).reduce((n, [, c]) => n + c, 0);
    // Under load first (some answers in), then down until the service has felt it (an answer 503), then back.
    await waitUntil("20 answers before the stop", () => answered((x) => x === 200) >= 20);
    await pg.stop();
    await waitUntil("a 503 while the database is down", () => answered((x) => x !== 200) >= 1);
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
