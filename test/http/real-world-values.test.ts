import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isInternationalPhone, isName, isSsid } from "../../src/http/validation.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { templateId } from "../modules/campaigns/campaign-fixtures.js";

describe("values from the real world (rules)", () => {
  it("takes international numbers as people write them, with their country code", () => {
    for (const n of ["+44 117 496 0123", "+1 (416) 555-0199", "+33 1 23 45 67 89", "+81 3-1234-5678", "+49 30 123456", "+4930123456", "+1.416.555.0199"]) {
      assert.equal(isInternationalPhone(n), true, n);
    }
    for (const n of ["416-555-0199", "(416)555-0199", "x", "+999 123 4567", "+44 1", "+44 117 496 0123 9999 9999", "+44 117 496 0123x", "+44 (((117))) 496", "++44 117 496 0123", ""]) {
      assert.equal(isInternationalPhone(n), false, n);
    }
  });

  it("takes SSIDs of 1 to 32 bytes of UTF-8 without control characters", () => {
    for (const s of ["HarbourCafe-Guest", "Café Wi-Fi ☕", "a", "x".repeat(32), "é".repeat(16), "Mo's_Bar (Guest) #2!"]) assert.equal(isSsid(s), true, s);
    for (const s of ["", "x".repeat(33), "é".repeat(17), "Cafe\tGuest", "Cafe\nGuest", "Cafe\u007fGuest", "Cafe\u0085Guest", "Cafe\u2028Guest", "Cafe\ud800"]) assert.equal(isSsid(s), false, JSON.stringify(s));
  });

  it("takes names with spaces and punctuation in any script, never blank or with control characters", () => {
    for (const s of ["Harbour Cafe Summer", "Mo's Bar & Grill — Pier 3", "Café Zürich", "東京駅 カフェ", "مقهى الميناء"]) assert.equal(isName(s), true, s);
    for (const s of ["", "   ", "Bad\u0007Name", "Line\nBreak", "Tab\there", "Sep\u2029"]) assert.equal(isName(s), false, JSON.stringify(s));
  });
});

for (const dialect of DIALECTS) {
  describe(`values from the real world through the API (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it("stores a location, a campaign, a device and a sub-user named and numbered as people do, as written", async () => {
      const loc = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Mo's Bar & Grill — Pier 3", phone_number: "+44 117 496 0123" }));
      assert.equal(loc.statusCode, 200, JSON.stringify(loc.body));
      const read = await t.call("GET", "get-location", { location_ids: String(loc.body.location_id) });
      assert.equal(read.body.data[0].name, "Mo's Bar & Grill — Pier 3");
      assert.equal(read.body.data[0].phone_number, "+44 117 496 0123");

      const spec = await t.call("POST", "create-or-update-location", locationParams({ phone_number: "(217)555-0100" }));
      assert.equal(spec.statusCode, 200, "the specification's own form still passes");

      const camp = await t.call("POST", "create-or-update-campaign", { name: "Harbour Cafe Summer", template_campaign_id: await templateId(t, "CustomFormLogin"), ssid: "HarbourCafe-Guest" });
      assert.equal(camp.statusCode, 200, JSON.stringify(camp.body));
      const list = await t.call("GET", "campaign-list");
      const c = list.body.data.find((x: { id: number }) => x.id === camp.body.campaign_id);
      assert.equal(c.name, "Harbour Cafe Summer");
      assert.equal(c.ssid, "HarbourCafe-Guest");

      const params = subUserParams(loc.body.location_id, { phone_number: "+44 117 496 0123", first_name: "Siân", last_name: "O'Brien-Ng" });
      const sub = await t.call("POST", "create-sub-user", params);
      assert.equal(sub.statusCode, 200, JSON.stringify(sub.body));
      const subs = await t.call("GET", "subuser-list");
      const s = subs.body.data.find((x: { email: string }) => x.email === String(params.email_address).toLowerCase());
      assert.equal(s.phone_number, "+44 117 496 0123");
      assert.equal(s.first_name, "Siân");
    });

    it("still refuses junk with the field named, and writes nothing", async () => {
      const before = await t.call("GET", "location-list");
      const loc = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Bad\nName", phone_number: "416-555-0199" }));
      assert.equal(loc.statusCode, 400);
      assert.deepEqual(loc.body.message.location_name, ["The location_name format is invalid."]);
      assert.deepEqual(loc.body.message.phone_number, ["The phone_number format is invalid."]);
      const x = await t.call("POST", "create-or-update-location", locationParams({ phone_number: "x" }));
      assert.deepEqual(x.body.message, { phone_number: ["The phone_number format is invalid."] });
      const after = await t.call("GET", "location-list");
      assert.equal(after.body.data.length, before.body.data.length);

      const tpl = await templateId(t, "CustomFormLogin");
      const long = await t.call("POST", "create-or-update-campaign", { name: "Long", template_campaign_id: tpl, ssid: "é".repeat(17) });
      assert.deepEqual(long.body.message, { ssid: ["The ssid format is invalid."] });
      const tab = await t.call("POST", "create-or-update-campaign", { name: "Tab", template_campaign_id: tpl, ssid: "Cafe\u0001Guest" });
      assert.deepEqual(tab.body.message, { ssid: ["The ssid format is invalid."] });
    });
  });
}
