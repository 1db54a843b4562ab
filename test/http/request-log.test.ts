/**
 * The access log: the real service (startService) writes one JSON line per answered HTTP request,
 * with its values redacted, and none with LOG_REQUESTS=false; warnings and errors are logged either way,
 * those of a request bound to its id.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { type RunningService, startService } from "../../src/server.js";
import { type TestApp, testAppOf } from "../helpers/app.js";
import { type TestDb, createTestDb } from "../helpers/db.js";

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
}

interface Served {
  service: RunningService;
  tdb: TestDb;
  t: TestApp;
  lines: Line[];
  base: string;
  /** Resolves when `cond` holds of the lines, checked at each new line; fails after 10 s. */
  untilLines(what: string, cond: (lines: Line[]) => boolean): Promise<void>;
}

async function serve(logRequests: string): Promise<Served> {
  const tdb = await createTestDb("sqlite");
  const config = loadConfig({
    DATABASE_URL: tdb.url, HOST: "127.0.0.1", PORT: "0", RADIUS_ENABLED: "false", LOG_LEVEL: "info", LOG_REQUESTS: logRequests,
  });
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  const write = (line: string) => {
    lines.push(JSON.parse(line));
    for (const w of waiters) w();
  };
  const untilLines = (what: string, cond: (l: Line[]) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!cond(lines)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} in 10 s: ${JSON.stringify(lines.slice(-5))}`));
      }, 10_000);
      waiters.add(check);
      check();
    });
  const service = await startService(config, { logger: { level: "info", stream: { write } } });
  const t = await testAppOf({ ...tdb, db: service.db }, service.app, config);
  return { service, tdb, t, lines, base: `http://127.0.0.1:${service.httpPort}`, untilLines };
}

describe("access log", () => {
  describe("LOG_REQUESTS unset", () => {
    let s: Served;
    before(async () => {
      s = await serve("");
    });
    after(async () => {
      await s?.service.stop();
      await s?.tdb.close();
    });

    it("writes one line per answered request: method, URL with its values redacted, address, status, time", async () => {
      const before = s.lines.length;
      const res = await fetch(`${s.base}/api/location-list?identifier=${s.t.identifier}&page=2`);
      assert.equal(res.status, 200);
      assert.equal((await fetch(`${s.base}/no/such/page?password=hunter2`)).status, 404);
      // The line is written when the answer has gone: wait for it.
      await s.untilLines("two request lines", (l) => l.slice(before).filter((x) => x.msg === "request completed").length >= 2);
      const lines = s.lines.slice(before);
      assert.equal(lines.filter((l) => l.msg === "incoming request").length, 0, "no second line per request");
      const done = lines.filter((l) => l.msg === "request completed");
      assert.equal(done.length, 2, JSON.stringify(lines));
      const [list, missing] = done;
      assert.equal(list.level, 30);
      assert.equal(list.req?.method, "GET");
      assert.equal(list.req?.url, "/api/location-list?identifier=[redacted]&page=2");
      assert.equal(list.req?.remoteAddress, "127.0.0.1");
      assert.equal(list.res?.statusCode, 200);
      assert.equal(typeof list.responseTime, "number");
      assert.match(list.reqId ?? "", /^req-/);
      assert.notEqual(list.reqId, missing.reqId);
      assert.equal(missing.req?.url, "/no/such/page?password=[redacted]");
      assert.equal(missing.res?.statusCode, 404);
      assert.ok(!JSON.stringify(lines).includes(s.t.identifier) && !JSON.stringify(lines).includes("hunter2"));
    });
  });

  describe("LOG_REQUESTS=false", () => {
    let s: Served;
    before(async () => {
      s = await serve("false");
    });
    after(async () => {
      // Its database was destroyed by the test: stopping may find it gone.
      await s?.service.stop().catch(() => undefined);
      await s?.tdb.close();
    });

    it("writes no line for answered requests, and still logs what goes wrong", async () => {
      const before = s.lines.length;
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${s.base}/api/location-list?identifier=${s.t.identifier}`)).status, 200);
      // A database that went away: a warning, whatever LOG_REQUESTS says.
      await s.service.db.destroy();
      assert.equal((await fetch(`${s.base}/healthz`)).status, 503);
      // A marker instead of a wait: the next request's warning is written after every earlier
      // request's answer has gone, so a line for those answers would be in the log before it.
      assert.equal((await fetch(`${s.base}/healthz`)).status, 503);
      const notReady = (l: Line) => l.level === 40 && l.msg === "health check: database not ready";
      await s.untilLines("second health warning", (l) => l.slice(before).filter(notReady).length >= 2);
      const lines = s.lines.slice(before);
      assert.deepEqual(lines.filter((l) => l.msg === "request completed" || l.msg === "incoming request"), []);
      assert.ok(lines.some((l) => l.level === 40 && l.msg === "health check: database not ready"), JSON.stringify(lines));
      // Written through the request's own logger (made only when something logs through it): bound
      // to that request's id, each its own.
      const warnings = lines.filter(notReady);
      assert.ok(warnings.every((l) => /^req-/.test(l.reqId ?? "")), JSON.stringify(warnings));
      assert.notEqual(warnings[0].reqId, warnings[1].reqId);
    });
  });
});
