/**
 * Two apps in one process, each on its own database, share nothing: no cached row, caller, prepared
 * statement or rate-limit window of one is ever seen by the other.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp, locationParams } from "./helpers/app.js";
import { DIALECTS } from "./helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`two apps in one process (${dialect})`, () => {
    let a: TestApp;
    let b: TestApp;
    before(async () => {
      a = await createTestApp(dialect, { API_RATE_LIMIT_PER_MINUTE: "20" });
      b = await createTestApp(dialect, { API_RATE_LIMIT_PER_MINUTE: "20" });
    });
    after(async () => {
      await a.close();
      await b.close();
    });

    it("never serves one app's cached rows to the other, for the same ids", async () => {
      const inA = await a.call("POST", "create-or-update-location", locationParams({ location_name: "Only in A" }));
      const inB = await b.call("POST", "create-or-update-location", locationParams({ location_name: "Only in B" }));
      assert.equal(inA.body.location_id, inB.body.location_id, "fresh databases number alike");
      const id = String(inA.body.location_id);
      // Twice in A: the second read comes from A's cache (SQLite) while nothing is written.
      await a.call("GET", "get-location", { location_ids: id });
      assert.equal((await a.call("GET", "get-location", { location_ids: id })).body.data[0].name, "Only in A");
      assert.equal((await b.call("GET", "get-location", { location_ids: id })).body.data[0].name, "Only in B");
      const pageA = await a.app.inject({ method: "GET", url: new URL((await a.call("GET", "get-location", { location_ids: id })).body.data[0].url).pathname });
      const slugB = new URL((await b.call("GET", "get-location", { location_ids: id })).body.data[0].url).pathname;
      assert.equal(pageA.statusCode, 200);
      assert.equal((await a.app.inject({ method: "GET", url: slugB })).statusCode, 404, "A's prepared look-up reads A's database");
    });

    it("does not accept an identifier that only the other app resolved", async () => {
      assert.equal((await a.call("GET", "location-list", {}, { identifier: a.identifier })).statusCode, 200);
      const foreign = await b.call("GET", "location-list", {}, { identifier: a.identifier });
      assert.deepEqual(foreign.body, { status: "error", message: { identifier: ["The identifier is invalid."] } });
    });

    it("counts rate-limit windows per app", async () => {
      const address = "192.0.2.44";
      const attempt = (t: TestApp, i: number) =>
        t.app.inject({ method: "GET", url: "/api/location-list", headers: { identifier: `unknown-${i}` }, remoteAddress: address });
      for (let i = 0; i < 20; i++) await attempt(a, i);
      assert.equal((await attempt(a, 9)).statusCode, 429, "A limits the address");
      assert.equal((await attempt(b, 9)).statusCode, 400, "B has not counted it");
    });
  });
}
