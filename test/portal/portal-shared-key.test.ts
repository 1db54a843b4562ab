/**
 * Without PORTAL_SECRET the portal's signing key is generated once and kept in the database: a page
 * rendered by one instance (or before a restart) is accepted by another on the same database. With
 * PORTAL_SECRET set, that key is used and nothing is stored.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { storedSecret } from "../../src/db/service-secrets.js";
import { PORTAL_SECRET_NAME } from "../../src/portal/portal-deps.js";
import { createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, coovaUrl, makeWorld, stateOf } from "./portal-world.js";

for (const dialect of DIALECTS) {
  describe(`portal signing key shared through the database (${dialect})`, () => {
    it("a page from one instance completes its login on another, and the key is made once", async () => {
      const a = await createTestApp(dialect);
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false" });
      const b = await buildApp({ config, db: a.db, deps: createAppDeps(a.db), logger: false });
      await b.ready();
      try {
        const w = await makeWorld(a, { redirect_url: "" });
        const fromA = new PortalClient(a.app);
        const page = await fromA.get(coovaUrl(w.url, { called: w.apMac, mac: "0a:1b:2c:3d:4e:5f" }));
        assert.equal(page.statusCode, 200, page.body);
        const toB = new PortalClient(b);
        for (const [k, v] of fromA.cookies) toB.cookies.set(k, v);
        const res = await toB.post("/portal/login/custom", { state: stateOf(page.body), name: "Ann Example", email: "ann@example.com" });
        assert.equal(res.statusCode, 303, res.body);

        const rows = await a.db.selectFrom("service_secrets").selectAll().execute();
        assert.equal(rows.length, 1, "one key for both instances");
        assert.equal(rows[0].name, PORTAL_SECRET_NAME);
        assert.ok(rows[0].value.length >= 43, "256 random bits");
      } finally {
        await b.close();
        await a.close();
      }
    });

    it("instances that start together store one key and all read it", async () => {
      const t = await createTestApp(dialect, { PORTAL_SECRET: "configured-portal-secret-1234" });
      try {
        assert.equal((await t.db.selectFrom("service_secrets").selectAll().execute()).length, 0, "PORTAL_SECRET set: nothing stored");
        let made = 0;
        const values = await Promise.all(
          Array.from({ length: 8 }, () => storedSecret(t.db, "race-test", () => `value-${++made}`)),
        );
        assert.equal(new Set(values).size, 1, `everyone reads the same: ${values.join(", ")}`);
      } finally {
        await t.close();
      }
    });

    it("a page signed with another key is refused", async () => {
      const a = await createTestApp(dialect);
      const b = await createTestApp(dialect);
      try {
        const w = await makeWorld(a, { redirect_url: "" });
        await makeWorld(b, { redirect_url: "" });
        const fromA = new PortalClient(a.app);
        const page = await fromA.get(coovaUrl(w.url, { called: w.apMac, mac: "0a:1b:2c:3d:4e:5f" }));
        const toB = new PortalClient(b.app);
        for (const [k, v] of fromA.cookies) toB.cookies.set(k, v);
        const res = await toB.post("/portal/login/custom", { state: stateOf(page.body), name: "Ann Example", email: "ann@example.com" });
        assert.notEqual(res.statusCode, 303, "another database's key does not open A's page");
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
