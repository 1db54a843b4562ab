import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`locations (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it("creates a location from a form body and reads it back", async () => {
      const res = await t.call("POST", "create-or-update-location", locationParams());
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      assert.equal(res.body.message, "Location has been successfully created.");
      assert.equal(typeof res.body.location_id, "number");
      const read = await t.call("GET", "get-location", { location_ids: String(res.body.location_id) });
      assert.equal(read.statusCode, 200);
      const [loc] = read.body.data;
      assert.equal(loc.id, res.body.location_id);
      assert.equal(loc.name, "Corner Cafe");
      assert.equal(loc.city, "Springfield");
      assert.equal(loc.zip, "62701");
      assert.equal(loc.time_zone, "America/Chicago");
      assert.equal(loc.deleted, 0);
      assert.match(loc.url, /^http:\/\/portal\.test\/portal\/l\//);
      assert.match(loc.date_created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.deepEqual(loc.location, { latitude: null, longitude: null });
    });

    it("reports every failing parameter at once and writes nothing", async () => {
      const before = await t.call("GET", "location-list");
      const res = await t.call(
        "POST",
        "create-or-update-location",
        locationParams({ location_name: "", country: "XX", phone_number: "555-0100", timezone: "Mars/Base", zipcode: "x".repeat(10000) }),
        { as: "json" },
      );
      assert.equal(res.statusCode, 400);
      assert.equal(res.body.status, "error");
      assert.deepEqual(res.body.message.location_name, ["The location_name field is required."]);
      assert.deepEqual(res.body.message.country, ["The selected country is invalid."]);
      assert.deepEqual(res.body.message.phone_number, ["The phone_number format is invalid."]);
      assert.deepEqual(res.body.message.timezone, ["The selected timezone is invalid."]);
      assert.deepEqual(res.body.message.zipcode, ["The zipcode may not be greater than 20 characters."]);
      const afterList = await t.call("GET", "location-list");
      assert.equal(afterList.body.data.length, before.body.data.length);
    });

    it("refuses 11 ids, empty items and other accounts' locations alike", async () => {
      const ids = Array.from({ length: 11 }, (_, i) => i + 1).join(",");
      const many = await t.call("GET", "get-location", { location_ids: ids });
      assert.equal(many.statusCode, 400);
      assert.deepEqual(many.body.message.location_ids, ["The location_ids may not contain more than 10 ids."]);
      const empty = await t.call("GET", "get-location", { location_ids: "1,,2" });
      assert.deepEqual(empty.body.message.location_ids, ["The location_ids format is invalid."]);
      const other = await t.newAccount();
      const mine = await t.call("POST", "create-or-update-location", locationParams());
      const theirs = await t.call("GET", "get-location", { location_ids: String(mine.body.location_id) }, { identifier: other.identifier });
      assert.equal(theirs.statusCode, 400);
      assert.deepEqual(theirs.body.message.location_ids, ["The selected location_ids is invalid."]);
    });

    it("accepts the identifier from header and bearer, refuses missing and unknown", async () => {
      const viaHeader = await t.call("GET", "location-list", {}, { identifier: null, headers: { identifier: t.identifier } });
      assert.equal(viaHeader.statusCode, 200);
      const viaBearer = await t.call("GET", "location-list", {}, { identifier: null, headers: { authorization: `Bearer ${t.identifier}` } });
      assert.equal(viaBearer.statusCode, 200);
      const missing = await t.call("GET", "location-list", {}, { identifier: null });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(missing.body, { status: "error", message: { identifier: ["The identifier field is required."] } });
      const unknown = await t.call("GET", "location-list", {}, { identifier: "nope" });
      assert.deepEqual(unknown.body.message, { identifier: ["The identifier is invalid."] });
    });

    it("soft-deletes: get still returns it with deleted 1, list and writes do not see it", async () => {
      const created = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Gone" }));
      const id = created.body.location_id;
      const del = await t.call("POST", "delete-location", { location_id: id });
      assert.equal(del.statusCode, 200);
      assert.equal(del.body.message, "Location has been successfully deleted.");
      const read = await t.call("GET", "get-location", { location_ids: String(id) });
      assert.equal(read.body.data[0].deleted, 1);
      const list = await t.call("GET", "location-list");
      assert.ok(!list.body.data.some((l: { id: number }) => l.id === id));
      const upd = await t.call("POST", "create-or-update-location", locationParams({ location_id: id }));
      assert.deepEqual(upd.body.message, { location_id: ["The selected location_id is invalid."] });
      const again = await t.call("POST", "delete-location", { location_id: id });
      assert.equal(again.statusCode, 400);
    });

    it("answers malformed JSON, unknown paths and wrong methods in the error shape", async () => {
      const bad = await t.app.inject({ method: "POST", url: "/api/create-or-update-location", payload: "{nope", headers: { "content-type": "application/json" } });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().status, "error");
      const nf = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
      assert.equal(nf.statusCode, 404);
      assert.equal(nf.json().status, "error");
      const wrong = await t.app.inject({ method: "DELETE", url: "/api/get-location" });
      assert.equal(wrong.statusCode, 405);
      assert.equal(wrong.json().status, "error");
    });
  });
}
