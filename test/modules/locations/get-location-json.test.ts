/** get-location answers rows' JSON kept with the cached rows: the same answer as the response schema's. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Value } from "@sinclair/typebox/value";
import { LocationsResponse } from "../../../src/modules/locations/locations.schemas.js";
import { toLocationRecord } from "../../../src/modules/locations/locations.service.js";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`get-location's JSON (${dialect})`, () => {
    let t: TestApp;
    const ids: number[] = [];
    before(async () => {
      t = await createTestApp(dialect);
      for (const extra of [{}, { latitude: "51.5072", longitude: "-0.1276", website: "https://cafe.example/" }, { location_name: 'Quote " and \\ and é' }]) {
        const res = await t.call("POST", "create-or-update-location", locationParams(extra));
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
        ids.push(res.body.location_id);
      }
    });
    after(async () => t.close());

    it("is the schema's answer for the rows, before and after a change, as JSON", async () => {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++) {
          const res = await t.call("GET", "get-location", { location_ids: ids.join(",") });
          assert.equal(res.statusCode, 200, JSON.stringify(res.body));
          assert.match(String(res.headers["content-type"]), /^application\/json/);
          assert.ok(Value.Check(LocationsResponse, res.body), "matches the response schema");
          const rows = await t.db.selectFrom("locations").selectAll().where("id", "in", ids).orderBy("id").execute();
          assert.deepEqual(res.body, { status: "success", data: rows.map((r) => toLocationRecord(r, t.config.publicUrl)) });
        }
        const renamed = await t.call("POST", "create-or-update-location", locationParams({ location_id: ids[0], location_name: `Renamed ${round}` }));
        assert.equal(renamed.statusCode, 200, JSON.stringify(renamed.body));
        const res = await t.call("GET", "get-location", { location_ids: String(ids[0]) });
        assert.equal(res.body.data[0].name, `Renamed ${round}`);
      }
    });
  });
}
