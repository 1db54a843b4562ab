import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { createLocation, login } from "./guests-fixtures.js";

const CHI = "America/Chicago";
const TYO = "Asia/Tokyo";

for (const dialect of DIALECTS) {
  describe(`social-user-list (${dialect})`, () => {
    let t: TestApp;
    let chicago: number;
    let tokyo: number;
    let ann: number;
    let bob: number;
    let cy: number;
    before(async () => {
      t = await createTestApp(dialect);
      chicago = await createLocation(t, CHI, "Chicago");
      tokyo = await createLocation(t, TYO, "Tokyo");
      const a = t.accountId;
      // 03:30 UTC on March 1st is still February 28th in Chicago.
      ann = (await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-01T03:30:00Z", identity: "ann@example.com" })).guestId;
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-05T15:00:00Z", identity: "ann@example.com", campaignId: 2 });
      // 18:00 UTC on March 2nd is March 3rd in Tokyo.
      bob = (await login(t, { accountId: a, locationId: tokyo, timezone: TYO, at: "2026-03-02T18:00:00Z", identity: "1001", loginType: "FBUser", campaignId: 2 })).guestId;
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-02T18:00:00Z", identity: "1001", loginType: "FBUser" });
      cy = (await login(t, { accountId: a, locationId: tokyo, timezone: TYO, at: "2026-02-20T01:00:00Z", identity: "+15550100", loginType: "Twilio" })).guestId;
      await login(t, { accountId: a, locationId: tokyo, timezone: TYO, at: "2026-03-03T01:00:00Z", identity: "+15550100", loginType: "Twilio" });
    });
    after(async () => t.close());

    const list = (params: Record<string, unknown>, identifier?: string) => t.call("GET", "social-user-list", params, { identifier });

    it("lists one entry per guest and location with a login in the range, by the location's own days", async () => {
      const res = await list({ location_ids: `${tokyo},${chicago}`, from_date: "2026-03-01", to_date: "2026-03-03" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      assert.deepEqual(res.body.data, [
        { social_user_id: bob, location_id: chicago, campaign_id: 1, added_datetime: "2026-03-02 18:00:00" },
        { social_user_id: bob, location_id: tokyo, campaign_id: 2, added_datetime: "2026-03-02 18:00:00" },
        // Cy joined Tokyo in February: added_datetime is that first login, not the one in the range.
        { social_user_id: cy, location_id: tokyo, campaign_id: 1, added_datetime: "2026-02-20 01:00:00" },
      ]);
      assert.ok(bob < cy, "ordered by social_user_id");
    });

    it("counts a login at 03:30 UTC on the previous day in America/Chicago", async () => {
      const feb28 = await list({ location_ids: String(chicago), from_date: "2026-02-28", to_date: "2026-02-28" });
      assert.deepEqual(
        feb28.body.data.map((e: { social_user_id: number }) => e.social_user_id),
        [ann],
      );
      const mar1 = await list({ location_ids: String(chicago), from_date: "2026-03-01", to_date: "2026-03-01" });
      assert.deepEqual(mar1.body.data, []);
    });

    it("filters by the campaign of the logins in the range and by social network", async () => {
      const byCampaign = await list({ location_ids: `${chicago},${tokyo}`, from_date: "2026-02-01", to_date: "2026-03-31", campaign_id: 2 });
      assert.equal(byCampaign.statusCode, 200, JSON.stringify(byCampaign.body));
      assert.deepEqual(
        byCampaign.body.data.map((e: { social_user_id: number; location_id: number; campaign_id: number }) => [e.social_user_id, e.location_id, e.campaign_id]),
        [
          // Ann logged in through campaign 2 on March 5th, but first joined through campaign 1.
          [ann, chicago, 1],
          [bob, tokyo, 2],
        ],
      );
      const fb = await list({ location_ids: `${chicago},${tokyo}`, from_date: "2026-02-01", to_date: "2026-03-31", social_network: "FBUser" });
      assert.deepEqual(
        fb.body.data.map((e: { social_user_id: number }) => e.social_user_id),
        [bob, bob],
      );
      const sms = await list({ location_ids: String(tokyo), from_date: "2026-02-01", to_date: "2026-03-31", social_network: "Twilio" });
      assert.deepEqual(
        sms.body.data.map((e: { social_user_id: number }) => e.social_user_id),
        [cy],
      );
      const linkedin = await list({ location_ids: String(tokyo), from_date: "2026-02-01", to_date: "2026-03-31", social_network: "LIuser" });
      assert.equal(linkedin.statusCode, 200);
      assert.deepEqual(linkedin.body.data, []);
    });

    it("keeps the history of a deleted location readable", async () => {
      const gone = await createLocation(t, CHI, "Gone");
      const g = await login(t, { accountId: t.accountId, locationId: gone, timezone: CHI, at: "2026-03-10T12:00:00Z", identity: "gone@example.com" });
      assert.equal((await t.call("POST", "delete-location", { location_id: gone })).statusCode, 200);
      const res = await list({ location_ids: String(gone), from_date: "2026-03-10", to_date: "2026-03-10" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.data, [{ social_user_id: g.guestId, location_id: gone, campaign_id: 1, added_datetime: "2026-03-10 12:00:00" }]);
    });

    it("enforces the 90-day range, real dates and to_date after from_date", async () => {
      const ninety = await list({ location_ids: String(chicago), from_date: "2026-01-01", to_date: "2026-04-01" });
      assert.equal(ninety.statusCode, 200, "exactly 90 days is allowed");
      const tooLong = await list({ location_ids: String(chicago), from_date: "2026-01-01", to_date: "2026-04-02" });
      assert.equal(tooLong.statusCode, 400);
      assert.deepEqual(tooLong.body.message, { to_date: ["The to_date must be a date within 90 days after from_date."] });
      const backwards = await list({ location_ids: String(chicago), from_date: "2026-03-02", to_date: "2026-03-01" });
      assert.deepEqual(backwards.body.message, { to_date: ["The to_date must be a date after or equal to from_date."] });
      const feb30 = await list({ location_ids: String(chicago), from_date: "2023-02-30", to_date: "2023-03-01" });
      assert.equal(feb30.statusCode, 400);
      assert.deepEqual(feb30.body.message, { from_date: ["The from_date is not a valid date."] });
    });

    it("reports every failing parameter at once", async () => {
      const res = await list({ location_ids: "1,,2", campaign_id: "abc", to_date: "03/01/2026", social_network: "Myspace" });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.body.message, {
        location_ids: ["The location_ids format is invalid."],
        campaign_id: ["The campaign_id must be an integer."],
        from_date: ["The from_date field is required."],
        to_date: ["The to_date is not a valid date."],
        social_network: ["The social_network must be one of: FBUser, Cuser, IGuser, TWuser, Twilio, FWuser, Muser, LIuser, Vuser, PPuser."],
      });
    });

    it("caps location_ids at 100 and refuses other accounts' locations and campaigns", async () => {
      const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
      const tooMany = await list({ location_ids: many, from_date: "2026-03-01", to_date: "2026-03-02" });
      assert.deepEqual(tooMany.body.message, { location_ids: ["The location_ids may not contain more than 100 ids."] });

      const other = await t.newAccount();
      const theirs = await list({ location_ids: `${chicago}`, from_date: "2026-03-01", to_date: "2026-03-02" }, other.identifier);
      assert.equal(theirs.statusCode, 400);
      assert.deepEqual(theirs.body.message, { location_ids: ["The selected location_ids is invalid."] });

      const otherLocation = await createLocation(t, CHI, "Theirs", other.identifier);
      const mixed = await list({ location_ids: `${chicago},${otherLocation}`, from_date: "2026-03-01", to_date: "2026-03-02" });
      assert.deepEqual(mixed.body.message, { location_ids: ["The selected location_ids is invalid."] });

      const noCampaign = await list({ location_ids: String(chicago), from_date: "2026-03-01", to_date: "2026-03-02", campaign_id: 999999 });
      assert.deepEqual(noCampaign.body.message, { campaign_id: ["The selected campaign_id is invalid."] });

      // The other account sees its own guests only, even at the same days.
      await login(t, { accountId: other.accountId, locationId: otherLocation, timezone: CHI, at: "2026-03-02T18:00:00Z", identity: "ann@example.com" });
      const own = await list({ location_ids: String(otherLocation), from_date: "2026-03-01", to_date: "2026-03-02" }, other.identifier);
      assert.equal(own.body.data.length, 1);
      assert.notEqual(own.body.data[0].social_user_id, ann, "the same e-mail is another guest in another account");
    });
  });
}
