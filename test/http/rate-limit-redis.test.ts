/**
 * With REDIS_URL the rate limits count in Redis (the local Redis the machine runs, or
 * TEST_REDIS_URL): instances count together wherever their database is. A Redis that is stopped
 * (a redis-server of the test's own, SIGSTOPped) or refuses connections leaves every limit
 * counting in the instance's memory: the limits that guard secrets still answer 429.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { type TestApp, createTestApp, testAppOf } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { type RedisProcess, startRedisServer } from "../helpers/redis-server.js";
import { PortalClient, coovaUrl, makeWorld, randomMac, stateOf } from "../portal/portal-world.js";
import { type TwilioStandIn, startTwilioStandIn } from "../portal/stand-ins.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Windows start at a caller's first hit in Redis; a fresh prefix per test keeps runs apart. */
const env = (prefix: string) => ({ API_RATE_LIMIT_PER_MINUTE: "10", REDIS_URL, REDIS_PREFIX: prefix });

/** Waits until /healthz reports Redis `want` (the service connects in the background). */
async function untilRedis(app: FastifyInstance, want: "ok" | "degraded"): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const health = (await app.inject({ method: "GET", url: "/healthz" })).json();
    if ((health.checks?.redis ?? "none") === want) return;
    if (Date.now() > deadline) throw new Error(`Redis not ${want}: ${JSON.stringify(health)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const dialect of DIALECTS) {
  describe(`rate limits in Redis (${dialect})`, () => {
    const prefix = `guestwifi-test-${randomBytes(4).toString("hex")}:`;
    let a: TestApp;
    let b: FastifyInstance;
    let redis: Redis;
    before(async () => {
      redis = new Redis(REDIS_URL);
      a = await createTestApp(dialect, env(prefix));
      // A second instance on the same database.
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false", ...env(prefix) });
      b = await buildApp({ config, db: a.db, deps: createAppDeps(a.db), logger: false });
      await b.ready();
      await untilRedis(a.app, "ok");
      await untilRedis(b, "ok");
    });
    after(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await b.close();
      await a.close();
    });

    it("counts a caller's calls on both instances against one limit, in Redis", async () => {
      const onB = () => b.inject({ method: "GET", url: "/api/location-list", headers: { identifier: a.identifier } });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await a.call("GET", "location-list")).statusCode, (await onB()).statusCode);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
      const keys = await redis.keys(`${prefix}*`);
      assert.ok(keys.length >= 1, "the counts are in Redis under the prefix");
      if (dialect === "postgres") {
        assert.equal((await a.db.selectFrom("rate_limit_hits").selectAll().execute()).length, 0, "and not in PostgreSQL");
      }
    });
  });
}

/** Answers of `n` calls in a row. */
async function statuses(n: number, call: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).statusCode);
  return out;
}

for (const dialect of DIALECTS) {
  describe(`limits that guard secrets, with Redis stopped (own redis-server, SIGSTOP; ${dialect})`, () => {
    let redis: RedisProcess;
    let twilio: TwilioStandIn;
    let t: TestApp;
    /** A second app on the same database without the API's limit, for the set-up's API calls. */
    let setup: TestApp;
    before(async () => {
      redis = await startRedisServer();
      twilio = await startTwilioStandIn();
      t = await createTestApp(dialect, {
        REDIS_URL: redis.url,
        API_RATE_LIMIT_PER_MINUTE: "5",
        PORTAL_VOUCHER_TRIES_PER_MINUTE: "4",
        PORTAL_SMS_RATE_LIMIT_PER_MINUTE: "3",
        PORTAL_SECRET: "portal-secret-for-tests",
        TWILIO_API_BASE_URL: twilio.url,
        TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
        TWILIO_AUTH_TOKEN: "twilio-token",
        TWILIO_FROM: "+15005550006",
      });
      await untilRedis(t.app, "ok");
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false" });
      setup = await testAppOf(t, await buildApp({ config, db: t.db, deps: createAppDeps(t.db), logger: false }), config);
    });
    after(async () => {
      await setup?.app.close();
      await t?.close();
      await twilio?.close();
      await redis?.destroy();
    });

    it("keeps counting sign-ins, voucher codes, texts and unknown identifiers in memory: 429s, each answered without waiting on Redis", async () => {
      const voucherWorld = await makeWorld(setup, { login_options: JSON.stringify({ voucher: 1 }) });
      const smsWorld = await makeWorld(setup, { login_options: JSON.stringify({ sms: 1 }) });
      // Two calls counted while Redis answers: they stay counted when it stops.
      assert.deepEqual(await statuses(2, () => t.call("GET", "location-list")), [200, 200]);
      // What Redis itself ran of the counting script (EVALSHA, or EVAL the first time), by its own statistics.
      const scriptRuns = async () => {
        const probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
        try {
          const stats = await probe.info("commandstats");
          return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
        } finally {
          probe.disconnect();
        }
      };
      const runsBefore = await scriptRuns();
      redis.pause();

      // The API's limit of 5 per caller: 2 before the stop, 3 after, then 429.
      assert.deepEqual(await statuses(5, () => t.call("GET", "location-list")), [200, 200, 200, 429, 429]);
      await untilRedis(t.app, "degraded");

      // Unknown identifiers count per address.
      const unknown = await statuses(7, () => t.app.inject({ method: "GET", url: "/api/location-list", headers: { identifier: "no-such-identifier-0123456789" }, remoteAddress: "198.51.100.31" }));
      assert.deepEqual(unknown, [400, 400, 400, 400, 400, 429, 429]);

      // Console sign-in: 10 wrong passwords a minute, then 429.
      const signIns = await statuses(12, () =>
        t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: "nobody@example.com", password: "wrong" }, remoteAddress: "198.51.100.32" }),
      );
      assert.deepEqual(signIns, [...Array(10).fill(401), 429, 429]);

      // Voucher codes: 4 tries a minute from one address, right or wrong.
      const guest = new PortalClient(t.app, undefined, "198.51.100.33");
      const tries = await statuses(6, async () => {
        const page = await guest.get(coovaUrl(voucherWorld.url, { called: voucherWorld.apMac, mac: randomMac() }));
        return guest.post("/portal/login/voucher", { state: stateOf(page.body), code: "CCCCC-CCCCC" });
      });
      assert.deepEqual(tries.slice(4), [429, 429], tries.join(","));
      assert.ok(tries.slice(0, 4).every((s) => s !== 429), tries.join(","));

      // Texts: 3 a minute from one address, then 429; nothing more reaches Twilio.
      const texter = new PortalClient(t.app, undefined, "198.51.100.34");
      const texts = await statuses(5, async () => {
        const page = await texter.get(coovaUrl(smsWorld.url, { called: smsWorld.apMac, mac: randomMac() }));
        return texter.post("/portal/login/sms", { state: stateOf(page.body), phone: `+4477009${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}` });
      });
      assert.deepEqual(texts, [200, 200, 200, 429, 429]);

      redis.resume();
      await untilRedis(t.app, "ok");
      // The first count after the stop waited REDIS_TIMEOUT_MS and marked Redis degraded; none of the
      // others was sent to it (at most that one is run once it resumes, if its connection still held it).
      const asked = (await scriptRuns()) - runsBefore;
      assert.ok(asked <= 1, `${asked} counts were sent to the stopped Redis`);
    });
  });
}

describe("rate limits with Redis refusing connections", () => {
  let t: TestApp;
  before(async () => {
    // A port nothing listens on.
    const port = await freeTcpPort();
    t = await createTestApp("sqlite", { API_RATE_LIMIT_PER_MINUTE: "3", REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  after(async () => t.close());

  it("counts in memory, neither refusing every call nor hanging, and /healthz says Redis is degraded", async () => {
    assert.deepEqual(await statuses(5, () => t.call("GET", "location-list")), [200, 200, 200, 429, 429]);
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.equal(health.statusCode, 200);
    assert.equal(health.json().checks.redis, "degraded");
    assert.match(health.json().degraded.redis[0], /rate limits count in this instance's memory/);
  });
});
