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
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, coovaUrl, makeWorld, stateOf } from "../portal/portal-world.js";

const ENV = { API_RATE_LIMIT_PER_MINUTE: "10", PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "4" };

/** Windows are aligned to the clock: start a count with at least 15 s of its minute left. */
async function freshWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

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
      await freshWindow();
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
      await freshWindow();
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
      await freshWindow();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await t.call("GET", "location-list")).statusCode);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
    });
  });
}
