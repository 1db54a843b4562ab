/**
 * The look-ups the portal and RADIUS share with the API (a live location by slug, a campaign by
 * filename) answer "not found" for any name that cannot be one, on every database, instead of
 * passing it to the database (PostgreSQL refuses NUL in text with an error).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { makeLocation } from "../helpers/sub-users.js";

const ODD = ["%00", "a%00b", "%00.html", "c-%00.html", "%01", "x".repeat(150), "%0A", "a%20b"];

for (const dialect of DIALECTS) {
  describe(`portal page look-ups by name (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it("answers 404 for slugs and filenames that cannot exist, NUL bytes included", async () => {
      for (const prefix of ["/portal/l/", "/portal/c/"]) {
        for (const name of ODD) {
          for (const accept of ["text/html", "application/json"]) {
            const res = await t.app.inject({ method: "GET", url: `${prefix}${name}`, headers: { accept } });
            assert.equal(res.statusCode, 404, `${prefix}${name} (${accept}) -> ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
      }
    });

    it("still serves the real pages", async () => {
      const id = await makeLocation(t);
      const loc = await t.call("GET", "get-location", { location_ids: String(id) });
      const page = await t.app.inject({ method: "GET", url: new URL(loc.body.data[0].url).pathname, headers: { accept: "text/html" } });
      assert.equal(page.statusCode, 200);
      const list = await t.call("GET", "campaign-list");
      const tpl = await t.app.inject({ method: "GET", url: new URL(list.body.data[0].campaign_url).pathname, headers: { accept: "text/html" } });
      assert.equal(tpl.statusCode, 200);
    });
  });
}
