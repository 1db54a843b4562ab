/**
 * On PostgreSQL the rate limits count in the database: two instances on one database share every
 * limit (the API's per caller, the portal's per address), instead of each allowing the limit.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import pg from "pg";
import { type DB, createDatabase } from "../../src/db/database.js";
import { PostgresRateLimitStore } from "../../src/db/rate-limit-store.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS, PG_URL } from "../helpers/db.js";
import { PortalClient, coovaUrl, makeWorld, stateOf } from "../portal/portal-world.js";

const ENV = { API_RATE_LIMIT_PER_MINUTE: "10", PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "4" };


if (DIALECTS.includes("postgres")) {
  describe("rate limits shared by two instances on one PostgreSQL database", () => {
    let a: TestApp;
    let b: FastifyInstance;
    before(async () => {
      a = await createTestApp("postgres", ENV);
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false", ...ENV });
      b = await buildApp({ config, db: a.db, deps: createAppDeps(a.db), logger: false });
      await b.ready();
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    it("counts a caller's API calls on both instances against one limit", async () => {
      const onB = () => b.inject({ method: "GET", url: "/api/location-list", headers: { identifier: a.identifier } });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await a.call("GET", "location-list")).statusCode, (await onB()).statusCode);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429], "the eleventh call, wherever it lands, is over 10");
      const other = await a.newAccount();
      assert.equal((await onB().then(() => a.call("GET", "location-list", {}, { identifier: other.identifier }))).statusCode, 200, "another caller has its own count");
    });

    it("counts a guest address's portal logins on both instances against one limit", async () => {
      const owner = await a.newAccount();
      const w = await makeWorld(a, { redirect_url: "" }, { identifier: owner.identifier });
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        for (const app of [a.app, b]) {
          const client = new PortalClient(app, undefined, "198.51.100.9");
          const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: "0a:1b:2c:3d:4e:5f" }));
          const res = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "Ann", email: `ann${i}@example.com` });
          codes.push(res.statusCode);
        }
      }
      assert.deepEqual(codes.slice(0, 4), [303, 303, 303, 303], codes.join(","));
      assert.ok(codes.slice(4).every((c) => c === 429), `past 4 logins from one address: ${codes.join(",")}`);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`the API limit on one instance (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, ENV);
    });
    after(async () => t.close());
    it("allows the limit and refuses the next call", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await t.call("GET", "location-list")).statusCode);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
    });
  });
}

if (DIALECTS.includes("postgres")) {
  describe("the PostgreSQL rate-limit store", () => {
    it("starts a key's window at its first hit and a new one once it has ended", async () => {
      const t = await createTestApp("postgres");
      try {
        // The store's clock is the test's: the window ends when the test moves it, not after a sleep.
        let clock = 1_000_000;
        const store = new PostgresRateLimitStore(t.db, "", () => clock);
        const incr = (key: string, windowMs: number) =>
          new Promise<{ current: number; ttl: number }>((resolve, reject) =>
            store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, 10),
          );
        const first = await incr("k", 400);
        assert.equal(first.current, 1);
        assert.equal(first.ttl, 400, "a whole window from the first hit");
        clock += 100;
        const second = await incr("k", 400);
        assert.deepEqual([second.current, second.ttl], [2, 300], "the same window, 100 ms on");
        assert.equal((await incr("other", 400)).current, 1, "keys count apart");
        clock += 299;
        assert.equal((await incr("k", 400)).current, 3, "the window's last millisecond still counts in it");
        clock += 1;
        const next = await incr("k", 400);
        assert.equal(next.current, 1, "the window ended: a new one starts");
        assert.equal(next.ttl, 400);
      } finally {
        await t.close();
      }
    });

    it("counts hits of one key that arrive together in fewer statements, each hit once and with its own count", async () => {
      const t = await createTestApp("postgres");
      try {
        // Every statement the store runs is counted (a Kysely plugin sees each result).
        let statements = 0;
        const counting = t.db.withPlugin({
          transformQuery: (args) => args.node,
          transformResult: async (args) => {
            statements++;
            return args.result;
          },
        });
        const store = new PostgresRateLimitStore(counting);
        const incr = (key: string) =>
          new Promise<{ current: number; ttl: number }>((resolve, reject) =>
            store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), 60_000, 10),
          );
        const counted = await Promise.all([...Array.from({ length: 25 }, () => incr("burst")), incr("alone")]);
        const currents = counted.slice(0, 25).map((r) => r.current);
        assert.deepEqual([...currents].sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1), "counts 1 to 25, each once");
        assert.equal(counted[25].current, 1, "another key counts apart");
        // One upsert per key in flight, then one for the 24 hits that waited (and at most one sweep).
        assert.ok(statements <= 4, `26 hits took ${statements} statements`);
        const row = await t.db.selectFrom("rate_limit_hits").select("hits").where("key", "=", "burst").executeTakeFirstOrThrow();
        assert.equal(Number(row.hits), 25, "the database holds every hit");
        assert.equal((await incr("burst")).current, 26, "and the next one counts on from there");
      } finally {
        await t.close();
      }
    });
  });
}

if (DIALECTS.includes("postgres")) {
  describe("rate limits while PostgreSQL's counts are out of reach (rate_limit_hits locked by another session)", () => {
    let t: TestApp;
    let app: FastifyInstance;
    let db: DB;
    let locker: pg.Client;
    before(async () => {
      t = await createTestApp("postgres", ENV);
      // The same schema with a short statement timeout: a count that waits on the lock fails after 300 ms.
      db = createDatabase(PG_URL, { searchPath: t.schema, poolSize: 5, timeouts: { acquireMs: 2000, connectMs: 2000, statementMs: 300 } });
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false", ...ENV });
      app = await buildApp({ config, db, deps: createAppDeps(db), logger: false });
      await app.ready();
      locker = new pg.Client({ connectionString: PG_URL });
      await locker.connect();
    });
    after(async () => {
      await locker?.query("rollback").catch(() => {});
      await locker?.end();
      await app?.close();
      await db?.destroy();
      await t?.close();
    });

    it("keeps counting sign-ins and API calls in memory: 429s, not a limit switched off", async () => {
      const call = () => app.inject({ method: "GET", url: "/api/location-list", headers: { identifier: t.identifier } });
      assert.equal((await call()).statusCode, 200, "one call counted in the database");
      assert.equal((await db.selectFrom("rate_limit_hits").selectAll().execute()).length > 0, true);
      await locker.query(`begin; set local search_path to "${t.schema}"; lock table rate_limit_hits in access exclusive mode`);
      const api: number[] = [];
      for (let i = 0; i < 11; i++) api.push((await call()).statusCode);
      assert.deepEqual(api, [...Array(9).fill(200), 429, 429], "10 a minute, the call before the lock included");
      const signIns: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: "nobody@example.com", password: "wrong" }, remoteAddress: "198.51.100.41" });
        signIns.push(res.statusCode);
      }
      assert.deepEqual(signIns, [...Array(10).fill(401), 429, 429]);
      await locker.query("rollback");
      const rows = await db.selectFrom("rate_limit_hits").select(["key", "hits"]).execute();
      assert.ok(
        rows.every((r) => Number(r.hits) === 1),
        `nothing reached the locked table: ${JSON.stringify(rows)}`,
      );
    });
  });
}
