import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { ANDROID_UA, createLocation, login } from "./guests-fixtures.js";

/** The specification's profile keys (Resources > Guest) and the JSON type each must have. */
const SPEC_KEYS: Record<string, "string" | "integer" | "null" | "datetime"> = {
  social_user_id: "integer",
  age: "string",
  access_token: "string",
  app_info_id: "integer",
  browser_name: "string",
  campaign_id: "integer",
  campaign_name: "string",
  device_id: "integer",
  device_mac: "string",
  email: "string",
  full_name: "string",
  gender: "string",
  phone_number: "string",
  birthdate: "string",
  locale: "string",
  location_id: "integer",
  location_name: "string",
  picture_url: "string",
  location_access: "null",
  return: "integer",
  radius_session_total_time: "integer",
  radius_total_bandwidth_input: "integer",
  radius_total_bandwidth_output: "integer",
  radius_session_first_datetime: "datetime",
  radius_session_last_datetime: "datetime",
  social_network: "string",
  social_network_id: "string",
  timezone: "string",
  updated_at: "datetime",
  user_id: "integer",
  user_device_agent: "string",
  user_device_brand: "string",
  user_device_os_name: "string",
  user_device_os_version: "string",
  user_device_type: "string",
  user_mac: "string",
  username: "string",
};

function assertType(key: string, value: unknown, type: string): void {
  if (type === "integer") assert.ok(Number.isInteger(value), `${key} should be an integer, got ${JSON.stringify(value)}`);
  else if (type === "null") assert.equal(value, null, `${key} should be null`);
  else if (type === "datetime") {
    assert.equal(typeof value, "string", `${key} should be a string`);
    assert.match(value as string, /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})?$/, `${key} should be YYYY-MM-DD HH:MM:SS or ""`);
  } else assert.equal(typeof value, "string", `${key} should be a string, got ${JSON.stringify(value)}`);
}

for (const dialect of DIALECTS) {
  describe(`get-social-user-profile (${dialect})`, () => {
    let t: TestApp;
    let chicago: number;
    let london: number;
    let deviceId: number;
    let ann: number;
    let bob: number;
    before(async () => {
      t = await createTestApp(dialect);
      chicago = await createLocation(t, "America/Chicago", "Chicago Cafe");
      london = await createLocation(t, "Europe/London", "London Pub");
      deviceId = await t.deps.repos.devices.insert(t.db, {
        account_id: t.accountId,
        location_id: london,
        model_id: "test-model",
        name: "Pub AP",
        mac_address: `0C:8D:DB:00:00:${dialect === "sqlite" ? "01" : "02"}`,
        radius_secret: "s3cret-s3cret",
        create_date: "2026-01-01 00:00:00",
        update_date: "2026-01-01 00:00:00",
      });
      const a = t.accountId;
      ann = (
        await login(t, {
          accountId: a, locationId: chicago, timezone: "America/Chicago", at: "2026-03-01T10:00:00Z", identity: "ann@example.com",
          profile: { email: "ann@example.com", full_name: "Ann Example", gender: "female", locale: "en_US", phone_number: "+15550100" },
          clientMac: "AA:BB:CC:00:00:01",
        })
      ).guestId;
      await login(t, { accountId: a, locationId: chicago, timezone: "America/Chicago", at: "2026-03-02T10:00:00Z", identity: "ann@example.com", clientMac: "AA:BB:CC:00:00:01" });
      // The latest login: another location, campaign, access point, phone and browser.
      await login(t, {
        accountId: a, locationId: london, timezone: "Europe/London", at: "2026-03-03T10:00:00Z", identity: "ann@example.com",
        campaignId: 2, deviceId, clientMac: "AA:BB:CC:00:00:02", userAgent: ANDROID_UA,
      });
      bob = (await login(t, { accountId: a, locationId: chicago, timezone: "America/Chicago", at: "2026-03-04T10:00:00Z", identity: "77", loginType: "FBUser", profile: { username: "bobby" } })).guestId;
    });
    after(async () => t.close());

    const profile = (user_ids: string, identifier?: string) => t.call("GET", "get-social-user-profile", { user_ids }, { identifier });

    it("answers every key of the specification with its type", async () => {
      const res = await profile(String(ann));
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      assert.equal(res.body.data.length, 1);
      const p = res.body.data[0];
      for (const [key, type] of Object.entries(SPEC_KEYS)) {
        assert.ok(key in p, `missing key ${key}`);
        assertType(key, p[key], type);
      }
    });

    it("fills device, location and campaign fields from the latest login, and counts returns", async () => {
      const [p] = (await profile(String(ann))).body.data;
      assert.equal(p.social_user_id, ann);
      assert.equal(p.user_id, ann);
      assert.equal(p.access_token, "");
      assert.equal(p.app_info_id, 0);
      assert.equal(p.location_access, null);
      assert.equal(p.return, 2, "three logins: two returns");
      assert.equal(p.email, "ann@example.com");
      assert.equal(p.full_name, "Ann Example");
      assert.equal(p.gender, "female");
      assert.equal(p.locale, "en_US");
      assert.equal(p.social_network, "Cuser");
      assert.equal(p.social_network_id, "ann@example.com");
      assert.equal(p.location_id, london);
      assert.equal(p.location_name, "London Pub");
      assert.equal(p.timezone, "Europe/London");
      assert.equal(p.campaign_id, 2);
      assert.equal(p.campaign_name, "SocialLogin");
      assert.equal(p.device_id, deviceId);
      assert.match(p.device_mac, /^0C:8D:DB:00:00:0[12]$/);
      assert.equal(p.user_mac, "AA:BB:CC:00:00:02");
      assert.equal(p.user_device_agent, ANDROID_UA);
      assert.equal(p.browser_name, "Chrome");
      assert.equal(p.user_device_os_name, "Android");
      assert.equal(p.user_device_os_version, "14");
      assert.equal(p.user_device_type, "mobile");
      assert.equal(p.user_device_brand, "Samsung");
      assert.equal(p.radius_session_total_time, 0);
      assert.equal(p.radius_total_bandwidth_input, 0);
      assert.equal(p.radius_session_first_datetime, "");
      assert.equal(p.radius_session_last_datetime, "");
      assert.equal(p.updated_at, "2026-03-03 10:00:00");
      assert.equal(p.last_login_datetime, "2026-03-03 10:00:00");
    });

    it("shows RADIUS totals as integers and session datetimes as UTC text", async () => {
      await t.db
        .updateTable("guests")
        .set({
          radius_session_total_time: 3600,
          radius_total_bandwidth_input: 5_000_000_000,
          radius_total_bandwidth_output: 12_345,
          radius_session_first_datetime: "2026-03-01 10:01:00",
          radius_session_last_datetime: "2026-03-03 11:00:00",
        })
        .where("id", "=", bob)
        .execute();
      const [p] = (await profile(String(bob))).body.data;
      assert.equal(p.radius_session_total_time, 3600);
      assert.equal(p.radius_total_bandwidth_input, 5_000_000_000, "past 2^32 stays an exact integer");
      assert.equal(p.radius_total_bandwidth_output, 12_345);
      assert.equal(p.radius_session_first_datetime, "2026-03-01 10:01:00");
      assert.equal(p.radius_session_last_datetime, "2026-03-03 11:00:00");
      assert.equal(p.return, 0, "one login: no return");
      assert.equal(p.username, "bobby");
      assert.equal(p.device_id, 0, "no access point known");
      assert.equal(p.device_mac, "");
    });

    it("returns records in the order given, duplicates once", async () => {
      const res = await profile(`${bob}, ${ann},${bob}`);
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.data.map((p: { social_user_id: number }) => p.social_user_id),
        [bob, ann],
      );
    });

    it("refuses other accounts' guests, unknown ids, bad lists and more than 100 ids", async () => {
      const other = await t.newAccount();
      const theirs = await profile(String(ann), other.identifier);
      assert.equal(theirs.statusCode, 400);
      assert.deepEqual(theirs.body, { status: "error", message: { user_ids: ["The selected user_ids is invalid."] } });
      const unknown = await profile(`${ann},99999`);
      assert.deepEqual(unknown.body.message, { user_ids: ["The selected user_ids is invalid."] });
      const bad = await profile("1,,2");
      assert.deepEqual(bad.body.message, { user_ids: ["The user_ids format is invalid."] });
      const zero = await profile("0");
      assert.deepEqual(zero.body.message, { user_ids: ["The user_ids format is invalid."] });
      const missing = await t.call("GET", "get-social-user-profile", {});
      assert.deepEqual(missing.body.message, { user_ids: ["The user_ids field is required."] });
      const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
      const tooMany = await profile(many);
      assert.deepEqual(tooMany.body.message, { user_ids: ["The user_ids may not contain more than 100 ids."] });
    });
  });
}
