/**
 * Voucher login through the portal (a Coova redirect, app.inject as the browser) and the Access-
 * Accept the real radclient gets for the credential: the voucher's time, rates and data allowance
 * replace the location's. Codes used up, expired, revoked or for another location are refused
 * with a clear sentence, on the page and in RADIUS; guessing is limited per client address; the
 * consent boxes are recorded with the login.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { coovaPapDecode } from "../../src/gateways/coova/coova.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "../radius/radclient.js";
import { papRequest } from "../radius/radius-fixtures.js";
import { PortalClient, type World, coovaUrl, makeWorld, randomMac, stateOf } from "./portal-world.js";

const UAM_SECRET = "voucher-uam-secret";
const CHALLENGE = "00112233445566778899aabbccddeeff";
const LOCATION_OPTIONS = { session_time_limit: 7200, max_bandwidth_up: 500_000, max_bandwidth_down: 500_000, daily_bandwidth_cap: 900_000_000 };

for (const dialect of DIALECTS) {
  describe(`voucher login (${dialect})`, () => {
    let t: TestApp;
    let radius: RadiusListener;
    let w: World;
    let other: World;
    let secret: string;
    let ipCounter = 10;

    before(async () => {
      t = await createTestApp(dialect, {
        PORTAL_SECRET: "voucher-portal-secret",
        COOVA_UAM_SECRET: UAM_SECRET,
        RADIUS_HOST: "127.0.0.1",
        RADIUS_AUTH_PORT: "0",
        RADIUS_ACCT_PORT: "0",
        PORTAL_VOUCHER_TRIES_PER_MINUTE: "8",
      });
      radius = await startRadius({ db: t.db, config: t.config, log: t.app.log });
      w = await makeWorld(t, { login_options: JSON.stringify({ voucher: 1, clickthrough: 1 }), terms_required: "1", marketing_opt_in: "1", marketing_text: "Send me offers." });
      other = await makeWorld(t, { login_options: JSON.stringify({ voucher: 1 }) });
      const set = await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...LOCATION_OPTIONS });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      secret = (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", w.deviceId).executeTakeFirstOrThrow()).radius_secret;
    });
    after(async () => {
      await radius?.stop();
      await t?.close();
    });

    /** A guest's phone on its own address (the voucher limit counts per address). */
    const guest = () => new PortalClient(t.app, undefined, `10.20.0.${++ipCounter}`);

    const batch = async (params: Record<string, unknown> = {}, locationIds = String(w.locationId)) => {
      const res = await t.call("POST", "create-voucher-batch", { location_ids: locationIds, count: 3, duration: 30, ...params });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return res.body as { batch_id: number; codes: string[] };
    };

    /** Opens the page as Coova sends the guest, and posts the voucher form. */
    async function tryCode(client: PortalClient, code: string, mac: string, world = w, extra: Record<string, string> = { accept_terms: "1" }) {
      const page = await client.get(coovaUrl(world.url, { called: world.apMac, mac, challenge: CHALLENGE, uamip: "10.1.0.1", uamport: 3990 }, UAM_SECRET));
      assert.equal(page.statusCode, 200, page.body);
      return client.post("/portal/login/voucher", { state: stateOf(page.body), code, ...extra });
    }

    const radiusFor = (location: string, mac: string) => {
      const logon = new URL(location);
      const password = coovaPapDecode(logon.searchParams.get("password")!, CHALLENGE, UAM_SECRET);
      return radclient(radius.authPort, "auth", secret, papRequest(w.apMac, mac, logon.searchParams.get("username")!, password), 3);
    };

    const errorOf = (html: string) => /<span class="error" id="voucher-code-error">([^<]*)<\/span>/.exec(html)?.[1]?.replace(/&#39;/g, "'");

    it("lets a guest in with a code: the voucher's time, rates and data cap replace the location's in the Access-Accept", async () => {
      const { codes } = await batch({ bandwidth_up: 125_000, bandwidth_down: 250_000, data_cap: 50_000_000 });
      const mac = randomMac();
      const res = await tryCode(guest(), codes[0].toLowerCase(), mac, w, { accept_terms: "1", marketing_opt_in: "1" });
      assert.equal(res.statusCode, 303, res.body);
      assert.match(res.location ?? "", /^http:\/\/10\.1\.0\.1:3990\/logon\?/);
      const r = await radiusFor(res.location!, mac);
      assert.equal(r.code, "Access-Accept", r.output);
      const timeout = Number(r.attributes["Session-Timeout"]);
      assert.ok(timeout <= 1800 && timeout > 1780, `Session-Timeout ${timeout}: the 30 minutes left, not the location's 7200`);
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Up"], "1000000");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Down"], "2000000");
      assert.equal(r.attributes["ChilliSpot-Max-Total-Octets"], "50000000");

      const login = await t.db.selectFrom("logins").selectAll().where("location_id", "=", w.locationId).orderBy("id", "desc").executeTakeFirstOrThrow();
      assert.equal(login.login_type, "Vuser");
      assert.notEqual(login.voucher_id, null);
      assert.equal(login.terms_accepted, 1);
      assert.equal(login.marketing_opt_in, 1);
      assert.match(login.terms_version, /^[0-9a-f]{16}$/);
      const listed = await t.call("GET", "voucher-list", { code: codes[0] });
      assert.equal(listed.body.data[0].status, "active");
      assert.equal(listed.body.data[0].devices_used, 1);
      assert.notEqual(listed.body.data[0].first_used_at, "");
    });

    it("gives a voucher without limits of its own the location's rates and daily cap, but its own time", async () => {
      const { codes } = await batch({ duration: 45 });
      const mac = randomMac();
      const res = await tryCode(guest(), codes[0], mac);
      assert.equal(res.statusCode, 303, res.body);
      const r = await radiusFor(res.location!, mac);
      assert.equal(r.code, "Access-Accept", r.output);
      assert.ok(Number(r.attributes["Session-Timeout"]) <= 2700 && Number(r.attributes["Session-Timeout"]) > 2680);
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Up"], "4000000");
      assert.equal(r.attributes["ChilliSpot-Max-Total-Octets"], "900000000");
    });

    it("lets the same device back in, and refuses a device beyond devices_per_code", async () => {
      const { codes } = await batch({ devices_per_code: 2 });
      const [a, b, c] = [randomMac(), randomMac(), randomMac()];
      assert.equal((await tryCode(guest(), codes[0], a)).statusCode, 303);
      assert.equal((await tryCode(guest(), codes[0], b)).statusCode, 303);
      const again = await tryCode(guest(), codes[0], a);
      assert.equal(again.statusCode, 303, "a device of the code comes back");
      const third = await tryCode(guest(), codes[0], c);
      assert.equal(third.statusCode, 400);
      assert.equal(errorOf(third.body), "This voucher is already in use on as many devices as it allows.");
    });

    it("refuses unknown, revoked, expired, used-up and other-location codes with a clear sentence", async () => {
      const { batch_id, codes } = await batch();
      const unknown = await tryCode(guest(), "AAAAA-AAAAA", randomMac());
      assert.equal(unknown.statusCode, 400);
      assert.equal(errorOf(unknown.body), "This voucher code is not valid. Please check the code and try again.");

      const elsewhere = await tryCode(guest(), codes[0], randomMac(), other);
      assert.equal(errorOf(elsewhere.body), "This voucher is not valid at this location.");

      const voucherId = (await t.call("GET", "voucher-list", { code: codes[0] })).body.data[0].voucher_id;
      await t.call("POST", "revoke-voucher", { voucher_id: voucherId });
      const revoked = await tryCode(guest(), codes[0], randomMac());
      assert.equal(errorOf(revoked.body), "This voucher has been cancelled. Please ask a member of staff for a new one.");

      await t.db.updateTable("voucher_batches").set({ expires_at: "2020-01-01 23:59:59" }).where("id", "=", batch_id).execute();
      const expired = await tryCode(guest(), codes[1], randomMac());
      assert.equal(errorOf(expired.body), "This voucher has expired. Please ask a member of staff for a new one.");
      assert.equal((await t.call("GET", "voucher-list", { code: codes[1] })).body.data[0].status, "expired");

      const fresh = await batch();
      const mac = randomMac();
      assert.equal((await tryCode(guest(), fresh.codes[0], mac)).statusCode, 303);
      await t.db.updateTable("vouchers").set({ ends_at: "2020-01-01 00:00:00" }).where("code", "=", fresh.codes[0].replace("-", "")).execute();
      const spent = await tryCode(guest(), fresh.codes[0], mac);
      assert.equal(errorOf(spent.body), "The time on this voucher is used up. Please ask a member of staff for a new one.");
      assert.equal((await t.call("GET", "voucher-list", { code: fresh.codes[0] })).body.data[0].status, "used_up");
      assert.equal(await t.db.selectFrom("logins").select("id").where("location_id", "=", other.locationId).executeTakeFirst(), undefined);
    });

    it("never lets a voucher's device back by MAC authentication (a returning guest of another method is)", async () => {
      const macAuth = (mac: string) => {
        const dashedMac = mac.replace(/:/g, "-");
        return radclient(radius.authPort, "auth", secret, [
          `User-Name = "${dashedMac}"`,
          `User-Password = "${dashedMac}"`,
          `Called-Station-Id = "${w.apMac.replace(/:/g, "-")}:Guest"`,
          `Calling-Station-Id = "${dashedMac}"`,
          "Message-Authenticator = 0x00",
        ]);
      };
      const { codes } = await batch();
      const byVoucher = randomMac();
      assert.equal((await tryCode(guest(), codes[0], byVoucher)).statusCode, 303);
      const refused = await macAuth(byVoucher);
      assert.equal(refused.code, "Access-Reject", refused.output);

      const byClick = randomMac();
      const client = guest();
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: byClick, challenge: CHALLENGE }, UAM_SECRET));
      const clicked = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(clicked.statusCode, 303, clicked.body);
      const accepted = await macAuth(byClick);
      assert.equal(accepted.code, "Access-Accept", accepted.output);
    });

    it("refuses in RADIUS a credential whose voucher was revoked after the login", async () => {
      const { codes } = await batch();
      const mac = randomMac();
      const res = await tryCode(guest(), codes[0], mac);
      assert.equal(res.statusCode, 303);
      const voucherId = (await t.call("GET", "voucher-list", { code: codes[0] })).body.data[0].voucher_id;
      await t.call("POST", "revoke-voucher", { voucher_id: voucherId });
      const r = await radiusFor(res.location!, mac);
      assert.equal(r.code, "Access-Reject", r.output);
      assert.equal(r.attributes["Reply-Message"], "This voucher has been cancelled. Please ask a member of staff for a new one.");
    });

    it("refuses a code whose data allowance is used up", async () => {
      const { codes } = await batch({ data_cap: 1_000_000 });
      const mac = randomMac();
      assert.equal((await tryCode(guest(), codes[0], mac)).statusCode, 303);
      await t.db
        .updateTable("guests")
        .set({ radius_total_bandwidth_input: 600_000, radius_total_bandwidth_output: 500_000 })
        .where("social_network", "=", "Vuser")
        .where("network_user_id", "=", codes[0].replace("-", "").toLowerCase())
        .execute();
      const spent = await tryCode(guest(), codes[0], mac);
      assert.equal(errorOf(spent.body), "The data allowance of this voucher is used up. Please ask a member of staff for a new one.");
      assert.equal((await t.call("GET", "voucher-list", { code: codes[0] })).body.data[0].status, "used_up");
    });

    it("asks for the terms when the campaign requires them, and records no login without them", async () => {
      const { codes } = await batch();
      const before = (await t.db.selectFrom("logins").select("id").execute()).length;
      const res = await tryCode(guest(), codes[0], randomMac(), w, {});
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /id="voucher-terms-error">Please accept the terms of use to connect\.</);
      assert.equal((await t.db.selectFrom("logins").select("id").execute()).length, before);
      assert.equal((await t.call("GET", "voucher-list", { code: codes[0] })).body.data[0].status, "unused");
    });

    it("limits the codes tried per client address, right or wrong", async () => {
      const client = guest();
      const { codes } = await batch();
      let limited: Awaited<ReturnType<typeof tryCode>> | undefined;
      for (let i = 0; i < 12 && !limited; i++) {
        const res = await tryCode(client, `CCCCC-CCCC${"AEFGHJKMNP"[i % 10]}`, randomMac());
        if (res.statusCode === 429) limited = res;
      }
      assert.ok(limited, "the 9th try of a minute is refused");
      assert.match(limited.body, /Too many voucher codes were tried from this network/);
      assert.ok(Number(limited.headers["retry-after"]) > 0);
      const right = await tryCode(client, codes[0], randomMac());
      assert.equal(right.statusCode, 429, "past the limit a right code is refused too: a guesser learns nothing");
      assert.equal((await tryCode(guest(), codes[0], randomMac())).statusCode, 303, "another address is not limited");
    });
  });
}
