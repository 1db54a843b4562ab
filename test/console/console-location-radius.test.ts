/**
 * The console's own routes around locations and campaigns, on SQLite and PostgreSQL: a location's
 * RADIUS attributes per gateway family in use (the RADIUS server's own encoding, account-isolated),
 * and the campaign preview with the saved logo, a new one and none.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { PNG_1X1 } from "../modules/campaigns/campaign-fixtures.js";

const PASSWORD = "a long owner password";
let n = 0;

interface Signed {
  cookie: string;
  csrf: string;
}

async function signIn(t: TestApp, email: string, password: string): Promise<Signed> {
  const res = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password }, remoteAddress: `10.201.${++n}.1` });
  assert.equal(res.statusCode, 200, res.body);
  return { cookie: String(res.headers["set-cookie"]).split(";")[0], csrf: res.json().user.csrf_token };
}

type Row = { name: string; value: number | string };
type Group = { dialect: string; families: string[]; devices: number; attributes: Row[]; filter_roles: { family: string; attribute: string; value: string }[] };

for (const dialect of DIALECTS) {
  describe(`console: location RADIUS attributes and campaign preview (${dialect})`, () => {
    let t: TestApp;
    let owner: Signed;
    let identifier: string;
    let locationId: number;
    const email = `radius-owner-${dialect}-${Date.now()}@example.com`;
    before(async () => {
      t = await createTestApp(dialect);
      identifier = (await createAccount(t.deps, email, PASSWORD)).identifier;
      owner = await signIn(t, email, PASSWORD);
      const loc = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Radius Cafe" }), { identifier });
      locationId = loc.body.location_id;
    });
    after(async () => t.close());

    const radius = (s: Signed | null, params: Record<string, string>) =>
      t.app.inject({ method: "GET", url: "/console/api/location-radius", query: params, headers: s ? { cookie: s.cookie } : {} });
    const groups = async (s: Signed = owner): Promise<Group[]> => {
      const res = await radius(s, { location_id: String(locationId) });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.dialects;
    };
    const table = (g: Group | undefined) => Object.fromEntries((g?.attributes ?? []).map((r) => [r.name, r.value]));

    it("shows, for a location without devices, what every dialect sends for its options", async () => {
      // Options all off: only the interim interval goes out.
      let all = await groups();
      assert.deepEqual(
        all.map((g) => g.dialect),
        ["chillispot", "mikrotik", "cambium", "wispr"],
      );
      for (const g of all) assert.deepEqual(g.attributes, [{ name: "Acct-Interim-Interval", value: t.config.radius.interimInterval }]);
      assert.ok(all.find((g) => g.dialect === "wispr")!.families.includes("Ubiquiti UniFi"));

      const set = await t.call(
        "POST",
        "set-session-and-bandwidth-info",
        { location_id: locationId, session_time_limit: 3600, max_bandwidth: 1_250_000, max_bandwidth_up: 256_000, daily_bandwidth_cap: 5_000_000_000 },
        { identifier },
      );
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      all = await groups();
      const interim = t.config.radius.interimInterval;
      const low = 5_000_000_000 % 2 ** 32;
      assert.deepEqual(table(all.find((g) => g.dialect === "chillispot")), {
        "Session-Timeout": 3600,
        "Acct-Interim-Interval": interim,
        "WISPr-Bandwidth-Max-Up": 2_048_000,
        "WISPr-Bandwidth-Max-Down": 10_000_000,
        "ChilliSpot-Max-Total-Octets": low,
        "ChilliSpot-Max-Total-Gigawords": 1,
      });
      assert.deepEqual(table(all.find((g) => g.dialect === "mikrotik")), {
        "Session-Timeout": 3600,
        "Acct-Interim-Interval": interim,
        "Mikrotik-Rate-Limit": "2048k/10M",
        "Mikrotik-Total-Limit": low,
        "Mikrotik-Total-Limit-Gigawords": 1,
      });
      assert.deepEqual(table(all.find((g) => g.dialect === "cambium")), {
        "Session-Timeout": 3600,
        "Acct-Interim-Interval": interim,
        "WISPr-Bandwidth-Max-Up": 2_048_000,
        "WISPr-Bandwidth-Max-Down": 10_000_000,
        "Cambium-Traffic-Quota-Limit-Total": low,
        "Cambium-Traffic-Quota-Limit-Total-Gigwords": 1,
      });
      assert.deepEqual(table(all.find((g) => g.dialect === "wispr")), {
        "Session-Timeout": 3600,
        "Acct-Interim-Interval": interim,
        "WISPr-Bandwidth-Max-Up": 2_048_000,
        "WISPr-Bandwidth-Max-Down": 10_000_000,
      });
    });

    it("shows only the families of the location's devices once it has some", async () => {
      for (const [model, mac] of [
        ["mikrotik-hap-ac2", "02:aa:00:00:00:01"],
        ["mikrotik-cap-ax", "02:aa:00:00:00:02"],
        ["ubiquiti-u6-lite", "02:aa:00:00:00:03"],
      ]) {
        const d = await t.call("POST", "create-device", { device_name: "AP", model_id: model, mac_address: mac }, { identifier });
        assert.equal(d.statusCode, 200, JSON.stringify(d.body));
        const a = await t.call("POST", "device-assign-location", { device_id: d.body.device_id, location_id: locationId }, { identifier });
        assert.equal(a.statusCode, 200, JSON.stringify(a.body));
      }
      const shown = await groups();
      assert.deepEqual(
        shown.map((g) => [g.dialect, g.families, g.devices]),
        [
          ["mikrotik", ["MikroTik RouterOS HotSpot"], 2],
          ["wispr", ["Ubiquiti UniFi"], 1],
        ],
      );
      assert.equal(table(shown[0])["Mikrotik-Rate-Limit"], "2048k/10M");
      assert.deepEqual(
        shown.map((g) => g.filter_roles),
        [[], []],
        "no role while the content filter is off",
      );

      // Content filter on: the families that take a role show it (MikroTik's address list); UniFi takes none.
      const on = await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, session_time_limit: 3600, content_filter: true }, { identifier });
      assert.equal(on.statusCode, 200, JSON.stringify(on.body));
      const filtered = await groups();
      assert.deepEqual(
        filtered.map((g) => [g.dialect, g.filter_roles]),
        [
          ["mikrotik", [{ family: "MikroTik RouterOS HotSpot", attribute: "Mikrotik-Address-List", value: "guestwifi-filtered" }]],
          ["wispr", []],
        ],
      );
    });

    it("lets a read-only sub-user read it, and refuses another account's location, a bad id and no session", async () => {
      const reader = `radius-reader-${dialect}-${Date.now()}@example.com`;
      const sub = await t.call("POST", "create-sub-user", subUserParams(locationId, { email_address: reader, password: "reader-pass-1", readonly: "1" }), { identifier });
      assert.equal(sub.statusCode, 200, JSON.stringify(sub.body));
      assert.equal((await groups(await signIn(t, reader, "reader-pass-1"))).length, 2);

      const other = await createAccount(t.deps, `radius-other-${dialect}-${Date.now()}@example.com`, PASSWORD);
      const theirs = (await t.call("POST", "create-or-update-location", locationParams({ location_name: "Theirs" }), { identifier: other.identifier })).body.location_id;
      const refused = await radius(owner, { location_id: String(theirs) });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json().message, { location_id: ["The selected location_id is invalid."] });
      // Their owner sees it: the refusal is about the account, not the id.
      assert.equal((await radius(await signIn(t, (await t.db.selectFrom("accounts").select("email").where("id", "=", other.accountId).executeTakeFirstOrThrow()).email!, PASSWORD), { location_id: String(theirs) })).statusCode, 200);
      for (const bad of ["0", "-1", "99999999999"]) {
        const res = await radius(owner, { location_id: bad });
        assert.equal(res.statusCode, 400, bad);
        assert.deepEqual(res.json().message, { location_id: ["The selected location_id is invalid."] }, bad);
      }
      for (const bad of ["abc", "1 OR 1=1", "1e3"]) {
        const res = await radius(owner, { location_id: bad });
        assert.equal(res.statusCode, 400, bad);
        assert.deepEqual(res.json().message, { location_id: ["The location_id must be an integer."] }, bad);
      }
      const missing = await radius(owner, {});
      assert.deepEqual([missing.statusCode, missing.json().message], [400, { location_id: ["The location_id field is required."] }]);
      assert.equal((await radius(null, { location_id: String(locationId) })).statusCode, 401);
      // A deleted location is refused too.
      const gone = (await t.call("POST", "create-or-update-location", locationParams({ location_name: "Gone" }), { identifier })).body.location_id;
      await t.call("POST", "delete-location", { location_id: gone }, { identifier });
      assert.equal((await radius(owner, { location_id: String(gone) })).statusCode, 400);
    });

    it("previews the saved logo at its portal address, a new one inline, and none when removed", async () => {
      const png = `data:image/png;base64,${PNG_1X1.toString("base64")}`;
      const tpl = (await t.call("GET", "campaign-list", {}, { identifier })).body.data.find((c: { template: number }) => c.template === 1).id;
      const created = await t.call("POST", "create-or-update-campaign", { name: "Logo", template_campaign_id: tpl, logo: png, ssid: "PreviewNet" }, { identifier });
      assert.equal(created.statusCode, 200, JSON.stringify(created.body));
      const preview = (body: Record<string, string>) =>
        t.app.inject({ method: "POST", url: "/console/preview", payload: { csrf_token: owner.csrf, campaign_id: String(created.body.campaign_id), ...body }, headers: { cookie: owner.cookie } });
      const logoPath = new URL(created.body.data.logo_url).pathname;

      const saved = await preview({});
      assert.equal(saved.statusCode, 200);
      assert.ok(saved.body.includes(`<img class="logo" src="${logoPath}" alt="PreviewNet">`), saved.body.slice(0, 600));
      assert.match(String(saved.headers["content-security-policy"]), /img-src 'self';/);

      const jpeg = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]).toString("base64")}`;
      const fresh = await preview({ logo: jpeg, ssid: "NewName" });
      assert.ok(fresh.body.includes(`<img class="logo" src="${jpeg}" alt="NewName">`));
      assert.match(String(fresh.headers["content-security-policy"]), /img-src 'self' data:;/);
      // Nothing was stored by the preview.
      const stored = (await t.call("GET", "get-campaign", { campaign_ids: created.body.campaign_id }, { identifier })).body.data[0];
      assert.equal(JSON.parse(stored.payload).logo, png);

      for (const body of [{ logo: "" }, { logo: "data:image/svg+xml;base64,PHN2Zy8+" }, { logo: `data:image/png;base64,${Buffer.from("<html>").toString("base64")}` }]) {
        const res = await preview(body);
        assert.equal(res.statusCode, 200);
        assert.ok(!res.body.includes('class="logo"'), body.logo);
        assert.match(String(res.headers["content-security-policy"]), /img-src 'self';/);
      }
    });
  });
}
