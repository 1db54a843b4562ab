/**
 * Background work meets a busy SQLite file calmly: while another process holds the file's write
 * lock (what `guestwifi demo` or a backup does beside a running service), the webhook outbox of a
 * real `guestwifi serve` keeps failing to take its deliveries, retries on its own schedule, and
 * logs one warning line without a stack for the whole spell, then one line when it works again;
 * every delivery is sent once the lock is gone, within the lease's bound.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { apiCall, apiPost, radiusAnswers, registerDevice } from "./service-probes.js";
import { waitUntil } from "../helpers/wait.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The longest the other process holds the lock if nobody tells it to let go (a bound: the test releases it earlier). */
const HOLD_AT_MOST_MS = 60_000;
/** WEBHOOK_TIMEOUT_MS plus the lease's 5 s margin, and time to spare: a delivery whose outcome was not recorded is sent again after its lease. */
const DELIVERED_WITHIN_MS = 30_000;

/**
 * Another process holding the SQLite file's write lock (BEGIN IMMEDIATE, a write) until `release()`
 * (then COMMIT), or `HOLD_AT_MOST_MS` at most. Resolves once it holds it.
 */
async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(${JSON.stringify(file)});
    db.pragma("busy_timeout = 10000");
    db.exec("begin immediate");
    db.exec("create table if not exists busy_writer (n integer)");
    db.exec("insert into busy_writer values (1)");
    process.stdout.write("locked\\n");
    const release = () => { db.exec("commit"); db.close(); process.exit(0); };
    process.stdin.once("data", release);
    setTimeout(release, ${HOLD_AT_MOST_MS});
  `;
  const child = spawn(process.execPath, ["-e", script], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const done = new Promise<void>((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited ${code}`)))));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => String(d).includes("locked") && resolve());
    child.once("exit", () => reject(new Error("the lock holder exited before locking")));
  });
  return {
    release() {
      child.stdin!.end("release\n");
      return done;
    },
  };
}

describe("background jobs with the SQLite file's write lock held by another process", () => {
  const file = join(tmpdir(), `guestwifi-busy-bg-${randomBytes(5).toString("hex")}.db`);
  let svc: ServiceProcess;
  let server: Server;
  let failing = true;
  let received = 0;
  let rxUrl: string;
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        res.writeHead(failing ? 500 : 204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    rxUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    svc = await startServiceProcess({
      DATABASE_URL: `sqlite:${file}`,
      DB_ACQUIRE_TIMEOUT_MS: "200",
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_POLL_MS: "100",
      WEBHOOK_RETRY_BASE_MS: "20",
      WEBHOOK_TIMEOUT_MS: "1000",
      LOG_LEVEL: "debug",
      LOG_REQUESTS: "false",
    });
  });
  after(async () => {
    await svc?.stop();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
  });

  it("retries the webhook outbox within its bound and logs one warning for the spell, no stack", async () => {
    const ap = await registerDevice(svc);
    const hook = await apiPost(svc, "create-or-update-webhook", { url: rxUrl, events: "session.start" });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    for (let i = 0; i < 3; i++) assert.ok(await radiusAnswers(svc, ap), "accounting start answered");
    // The first delivery is being tried (and refused with 500): the outbox is busy with it.
    await waitUntil("a first attempt", () => received >= 1, 30_000);

    const lock = await holdWriteLock(file);
    // Held until the outbox has failed twice against it (its debug line per further failure), so
    // the retries are seen however slowly a loaded machine runs them.
    await waitUntil("two failed attempts against the lock", () => /"job":"webhook delivery","failedAttempts":(?:[2-9]|\d\d)/.test(svc.output()), 30_000);
    await lock.release();
    failing = false;
    await waitUntil(
      "every delivery delivered",
      async () => {
        const res = await apiCall(svc, "webhook-delivery-list", { webhook_id: String(hook.body.webhook_id), limit: "100" });
        return res.status === 200 && res.body.data.length === 3 && res.body.data.every((d: { status: string }) => d.status === "delivered");
      },
      DELIVERED_WITHIN_MS,
    );
    // The API shows a delivery delivered once its run is recorded; the worker's pass then ends and
    // reports its success, whose line reaches this process's pipe a moment later.
    // (Its own line, at info: the spell's warning says "until it works again" too.)
    await waitUntil("the outbox's line that it works again", () => /"level":30,[^\n]*"msg":"webhook delivery works again"/.test(svc.output()), 10_000);

    const lines = svc
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, any>);
    // The start's warning about a loopback PUBLIC_URL (a test runs on localhost) is not a background job's.
    const warnings = lines.filter((l) => l.level >= 40 && l.public_url === undefined);
    const all = warnings.map((w) => JSON.stringify(w)).join("\n");
    // Another background job that ran into the lock (the retention job's first run, on a slow
    // machine) may have its own line: one per job, each a busy database, never an error.
    const jobs = warnings.map((w) => w.job);
    assert.equal(new Set(jobs).size, jobs.length, `at most one warning per job:\n${all}`);
    assert.ok(
      warnings.every((w) => w.level === 40 && /^SQLITE_BUSY/.test(String(w.code))),
      `only busy-database warnings:\n${all}`,
    );
    const webhook = warnings.find((w) => w.job === "webhook delivery");
    assert.ok(webhook, `the webhook outbox's one warning:\n${all}`);
    assert.match(webhook.msg, /busy or unavailable; read again in 100 ms/);
    assert.doesNotMatch(svc.output(), /SqliteError|"stack"|\n\s+at /, "no stack trace anywhere");
    const back = lines.filter((l) => l.job === "webhook delivery" && l.level === 30);
    assert.equal(back.length, 1, "one line when it works again");
    // Several attempts failed while the lock was held: counted in the spells' lines. The lock can
    // come while a run is in flight: recording its outcome fails, the delivery stays leased (7 s
    // here), and the passes meanwhile find nothing due and succeed, which ends that spell after one
    // failure; the claims after the lease then fail in a new spell, logged at debug only (a spell
    // is announced once a minute at most). Either way one warning and one "works again" line.
    const failures = lines.filter((l) => l.job === "webhook delivery" && (l.level === 40 || l.level === 20)).length;
    assert.ok(back[0].failedAttempts >= 1 && failures >= 2, `several attempts failed while the lock was held (${failures} lines; ${back[0].failedAttempts} in the announced spell)`);
    assert.equal(svc.exited(), undefined);
  });
});
