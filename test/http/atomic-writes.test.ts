/**
 * Writes that check something and then act on it are atomic: a concurrent write that changes what
 * was checked (a delete, the same unique value) either happens wholly before or wholly after.
 * Each race is two calls fired at once through app.inject, repeated many times, on both databases.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type CallResult, type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { makeCampaign } from "../modules/campaigns/campaign-fixtures.js";

const RACES = 300;

let macCounter = 0;
function freshMac(): string {
  const n = (Date.now() * 1000 + ++macCounter) % 2 ** 40;
  return `06:${n.toString(16).padStart(10, "0").match(/../g)!.join(":")}`;
}

function okOr400(res: CallResult, where: string): boolean {
  assert.ok(res.statusCode === 200 || res.statusCode === 400, `${where}: ${res.statusCode} ${JSON.stringify(res.body)}`);
  return res.statusCode === 200;
}

for (const dialect of DIALECTS) {
  describe(`check-then-act writes are atomic (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    const newLocation = async () => (await t.call("POST", "create-or-update-location", locationParams())).body.location_id as number;

    it("never leaves a device on a location deleted at the same time", async () => {
      let stranded = 0;
      for (let i = 0; i < RACES; i++) {
        const locationId = await newLocation();
        const device = await t.call("POST", "create-device", { device_name: "AP", model_id: "openwrt-generic", mac_address: freshMac() });
        const deviceId = device.body.device_id;
        const [assign, del] = await Promise.all([
          t.call("POST", "device-assign-location", { location_id: locationId, device_id: deviceId }),
          t.call("POST", "delete-location", { location_id: locationId }),
        ]);
        okOr400(assign, "assign");
        assert.ok(okOr400(del, "delete"), "the delete always goes through");
        const row = await t.db.selectFrom("devices").select("location_id").where("id", "=", deviceId).executeTakeFirstOrThrow();
        if (row.location_id === locationId) stranded++;
      }
      assert.equal(stranded, 0, `${stranded} of ${RACES} devices left on a deleted location`);
    });

    it("never leaves a deleted campaign as a location's default", async () => {
      let stranded = 0;
      for (let i = 0; i < RACES; i++) {
        const locationId = await newLocation();
        const campaignId = (await makeCampaign(t)).campaign_id;
        const [assign, del] = await Promise.all([
          t.call("POST", "location-assign-campaign", { location_id: locationId, campaign_id: campaignId }),
          t.call("POST", "delete-campaign", { campaign_id: campaignId }),
        ]);
        okOr400(assign, "assign");
        assert.ok(okOr400(del, "delete"), "the delete always goes through");
        const row = await t.db.selectFrom("locations").select("default_campaign_id").where("id", "=", locationId).executeTakeFirstOrThrow();
        if (row.default_campaign_id === campaignId) stranded++;
      }
      assert.equal(stranded, 0, `${stranded} of ${RACES} locations kept a deleted default campaign`);
    });

    it("deletes a location or a campaign once when asked twice at once", async () => {
      let twice = 0;
      for (let i = 0; i < RACES / 3; i++) {
        const locationId = await newLocation();
        const campaignId = (await makeCampaign(t)).campaign_id;
        const results = await Promise.all([
          t.call("POST", "delete-location", { location_id: locationId }),
          t.call("POST", "delete-location", { location_id: locationId }),
          t.call("POST", "delete-campaign", { campaign_id: campaignId }),
          t.call("POST", "delete-campaign", { campaign_id: campaignId }),
        ]);
        const ok = results.map((r) => okOr400(r, "delete"));
        if (ok[0] && ok[1]) twice++;
        if (ok[2] && ok[3]) twice++;
        assert.ok(ok[0] || ok[1], "one location delete succeeds");
        assert.ok(ok[2] || ok[3], "one campaign delete succeeds");
        for (const r of results.filter((x) => x.statusCode === 400)) {
          const [param] = Object.keys(r.body.message);
          assert.deepEqual(r.body.message, { [param]: [`The selected ${param} is invalid.`] });
        }
      }
      assert.equal(twice, 0, `${twice} records were deleted twice`);
    });

    it("creates one sub-user and one device per unique value, the other call hears it is taken", async () => {
      const locationId = await newLocation();
      for (let i = 0; i < RACES / 5; i++) {
        const email = `race${i}-${Date.now()}@example.com`;
        const subs = await Promise.all([0, 1].map(() => t.call("POST", "create-sub-user", subUserParams(locationId, { email_address: email }))));
        assert.deepEqual(subs.map((r) => r.statusCode).sort(), [200, 400], JSON.stringify(subs.map((r) => r.body)));
        assert.deepEqual(subs.find((r) => r.statusCode === 400)!.body.message, { email_address: ["The email_address has already been taken."] });
        const mac = freshMac();
        const devices = await Promise.all([0, 1].map(() => t.call("POST", "create-device", { device_name: "AP", model_id: "openwrt-generic", mac_address: mac })));
        assert.deepEqual(devices.map((r) => r.statusCode).sort(), [200, 400], JSON.stringify(devices.map((r) => r.body)));
        assert.deepEqual(devices.find((r) => r.statusCode === 400)!.body.message, { mac_address: ["The mac_address has already been taken."] });
      }
    });
  });
}
