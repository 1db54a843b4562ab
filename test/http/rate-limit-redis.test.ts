/**
 * With REDIS_URL the rate limits count in Redis (the local Redis the machine runs, or
 * TEST_REDIS_URL): instances count together wherever their database is, and a Redis that is
 * down leaves requests served (not limited) rather than refused.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Windows start at a caller's first hit in Redis; a fresh prefix per test keeps runs apart. */
const env = (prefix: string) => ({ API_RATE_LIMIT_PER_MINUTE: "10", REDIS_URL, REDIS_PREFIX: prefix });

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

describe("rate limits with Redis down", () => {
  let t: TestApp;
  before(async () => {
    // A port nothing listens on.
    const port = await freeTcpPort();
    t = await createTestApp("sqlite", { API_RATE_LIMIT_PER_MINUTE: "3", REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  after(async () => t.close());

  it("serves every call, unlimited, instead of refusing or hanging", async () => {
    for (let i = 0; i < 8; i++) {
      const t0 = Date.now();
      const res = await t.call("GET", "location-list");
      assert.equal(res.statusCode, 200);
      assert.ok(Date.now() - t0 < 2000, "no wait on the unreachable Redis");
    }
  });
});
