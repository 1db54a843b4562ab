import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.js";
import { coovaPapDecode, coovaPapEncode } from "../../src/gateways/coova/coova.js";
import { isLocalAddress } from "../../src/gateways/gateway.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, coovaUrl, countLogins, makeWorld, merakiUrl, randomMac, setApAddress, stateOf } from "./portal-world.js";

const UAM_SECRET = "uam-secret-for-tests";

describe("Coova PAP encoding", () => {
  it("XORs the password with MD5(challenge + uamsecret), or the bare challenge without a secret", () => {
    const challenge = "00112233445566778899aabbccddeeff";
    const encoded = coovaPapEncode("abcdefghijklmnop", challenge, "secret");
    assert.equal(encoded.length, 32);
    assert.equal(coovaPapDecode(encoded, challenge, "secret"), "abcdefghijklmnop");
    assert.notEqual(coovaPapDecode(encoded, challenge, "other"), "abcdefghijklmnop");
    // Without a uamsecret the key is the challenge itself: 'a' (0x61) ^ 0x00, 'b' (0x62) ^ 0x11 ...
    assert.equal(coovaPapEncode("ab", challenge, undefined), "6173");
    const long = "x".repeat(40);
    assert.equal(coovaPapDecode(coovaPapEncode(long, challenge, "s"), challenge, "s"), long);
  });

  it("takes COOVA_UAM_SECRET from the environment, unset by default, and refuses an absurd one", () => {
    assert.equal(loadConfig({}).coovaUamSecret, undefined);
    assert.equal(loadConfig({ COOVA_UAM_SECRET: "hotspot" }).coovaUamSecret, "hotspot");
    assert.throws(() => loadConfig({ COOVA_UAM_SECRET: "x".repeat(129) }), ConfigError);
  });

  it("treats private, CGNAT, loopback and link-local addresses as a gateway's own", () => {
    for (const ip of ["10.1.0.1", "192.168.182.1", "172.31.255.1", "100.64.0.1", "127.0.0.1", "169.254.1.1", "::1", "fd00::1", "fe80::1"]) {
      assert.equal(isLocalAddress(ip), true, ip);
    }
    for (const ip of ["8.8.8.8", "172.32.0.1", "2001:db8::1", "evil.example", ""]) assert.equal(isLocalAddress(ip), false, ip);
  });
});

for (const dialect of DIALECTS) {
  describe(`portal gateway hand-off (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: "portal-secret-for-tests", COOVA_UAM_SECRET: UAM_SECRET });
    });
    after(async () => t.close());

    it("Coova: custom form login -> logon URL with a one-time credential PAP-encoded against the challenge", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      const challenge = randomBytes(16).toString("hex");
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: "0a:1b:2c:3d:4e:5f", challenge, userurl: "http://example.org/news" }, UAM_SECRET));
      assert.equal(page.statusCode, 200, page.body);
      const res = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "Ann Example", email: "Ann@Example.com" });
      assert.equal(res.statusCode, 303, res.body);
      const to = new URL(res.location!);
      assert.equal(to.origin, "http://10.1.0.1:3990");
      assert.equal(to.pathname, "/logon");
      assert.equal(to.searchParams.get("userurl"), "http://example.org/news");
      const username = to.searchParams.get("username")!;
      const cred = await t.db.selectFrom("portal_credentials").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
      assert.equal(coovaPapDecode(to.searchParams.get("password")!, challenge, UAM_SECRET), cred.password);
      assert.equal(cred.location_id, w.locationId);
      assert.equal(cred.device_id, w.deviceId);
      assert.equal(cred.client_mac, "0A:1B:2C:3D:4E:5F");
      assert.equal(cred.used_at, null);
      const [login] = await countLogins(t, w.locationId);
      assert.equal(login.login_type, "Cuser");
      assert.equal(login.guest_id, cred.guest_id);
      assert.equal(login.campaign_id, w.campaignId);
      assert.equal(login.device_id, w.deviceId);
      assert.equal(login.client_mac, "0A:1B:2C:3D:4E:5F");
      assert.equal(login.os_name, "iOS");
      assert.equal(login.device_type, "mobile");
      const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", login.guest_id).executeTakeFirstOrThrow();
      assert.equal(guest.network_user_id, "ann@example.com");
      assert.equal(guest.full_name, "Ann Example");
      const device = await t.call("GET", "get-device", { device_ids: String(w.deviceId) });
      assert.equal(device.body.data[0].live_status, "online", "the AP was heard from");
    });

    it("Coova: the campaign's redirect_url replaces the guest's userurl", async () => {
      const w = await makeWorld(t, { redirect_url: "https://cafe.example/welcome" });
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, userurl: "http://example.org/" }, UAM_SECRET));
      const res = await client.post("/portal/login/email", { state: stateOf(page.body), email: "bob@example.com" });
      assert.equal(new URL(res.location!).searchParams.get("userurl"), "https://cafe.example/welcome");
    });

    it("Coova: refuses a missing or wrong md, a public uamip, and unknown or foreign APs", async () => {
      const w = await makeWorld(t);
      const client = new PortalClient(t.app);
      const noMd = await client.get(coovaUrl(w.url, { called: w.apMac }));
      assert.equal(noMd.statusCode, 400);
      const wrong = await client.get(coovaUrl(w.url, { called: w.apMac }, "not-the-secret"));
      assert.equal(wrong.statusCode, 400);
      const tampered = coovaUrl(w.url, { called: w.apMac, uamip: "10.1.0.1" }, UAM_SECRET).replace("uamip=10.1.0.1", "uamip=10.6.6.6");
      assert.equal((await client.get(tampered)).statusCode, 400);
      const publicIp = await client.get(coovaUrl(w.url, { called: w.apMac, uamip: "203.0.113.9" }, UAM_SECRET));
      assert.equal(publicIp.statusCode, 400);
      assert.match(publicIp.body, /invalid request/);
      await setApAddress(t, w.deviceId, "203.0.113.9");
      const known = await client.get(coovaUrl(w.url, { called: w.apMac, uamip: "203.0.113.9" }, UAM_SECRET));
      assert.equal(known.statusCode, 200, "the AP's registered address is its own");
      const unknown = await client.get(coovaUrl(w.url, { called: randomMac() }, UAM_SECRET));
      assert.equal(unknown.statusCode, 403);
      assert.match(unknown.body, /not registered/);
      const other = await t.newAccount();
      const theirs = await makeWorld(t, {}, { identifier: other.identifier });
      const foreign = await client.get(coovaUrl(w.url, { called: theirs.apMac }, UAM_SECRET));
      assert.equal(foreign.statusCode, 403, "another account's AP cannot use this location");
      assert.equal((await countLogins(t, w.locationId)).length, 0);
    });

    it("Coova: res=success shows the connected page, res=failed asks again", async () => {
      const w = await makeWorld(t);
      const client = new PortalClient(t.app);
      const ok = await client.get(coovaUrl(w.url, { called: w.apMac, res: "success", challenge: "" }, UAM_SECRET));
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /You are online/);
      const failed = await client.get(coovaUrl(w.url, { called: w.apMac, res: "failed" }, UAM_SECRET));
      assert.match(failed.body, /did not accept the login/);
      assert.match(failed.body, /action="\/portal\/login\/custom"/);
    });

    it("Meraki: click-through -> grant URL with continue_url and the location's session time as duration", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      await t.call("POST", "set-session-and-bandwidth-info", {
        location_id: w.locationId, session_time_limit: 5400, max_bandwidth: 0, max_bandwidth_up: 0, daily_bandwidth_cap: 0,
      });
      const client = new PortalClient(t.app);
      const grant = "https://n143.network-auth.com/splash/grant";
      const page = await client.get(merakiUrl(w.path, { grant, cont: "http://example.org/start", node: w.apMac, client: "f4:5c:89:9b:17:67" }));
      assert.equal(page.statusCode, 200, page.body);
      assert.match(String(page.headers["content-security-policy"]), /form-action 'self' https:\/\/n143\.network-auth\.com/);
      const missingTerms = await client.post("/portal/login/clickthrough", { state: stateOf(page.body) });
      assert.equal(missingTerms.statusCode, 400);
      assert.match(missingTerms.body, /accept the terms/);
      const res = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(res.statusCode, 303);
      const to = new URL(res.location!);
      assert.equal(`${to.origin}${to.pathname}`, grant);
      assert.equal(to.searchParams.get("continue_url"), "http://example.org/start");
      assert.equal(to.searchParams.get("duration"), "5400");
      const [login] = await countLogins(t, w.locationId);
      assert.equal(login.login_type, "FWuser");
      assert.equal(login.client_mac, "F4:5C:89:9B:17:67");
      const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", login.guest_id).executeTakeFirstOrThrow();
      assert.equal(guest.network_user_id, "mac:f4:5c:89:9b:17:67", "a click-through guest is their device");
    });

    it("Meraki: refuses grant URLs that are neither Meraki's cloud nor the AP's own address", async () => {
      const w = await makeWorld(t);
      const client = new PortalClient(t.app);
      for (const grant of ["https://evil.example/splash/grant", "http://n143.network-auth.com/splash/grant", "https://network-auth.com.evil.example/grant", "javascript:alert(1)"]) {
        const res = await client.get(merakiUrl(w.path, { grant, node: w.apMac }));
        assert.equal(res.statusCode, 400, grant);
        assert.equal(res.location, undefined);
      }
      const local = merakiUrl(w.path, { grant: "http://127.0.0.1:8080/splash/grant", node: w.apMac });
      assert.equal((await client.get(local)).statusCode, 400, "loopback is no Meraki grant host unless it is the AP's");
      await setApAddress(t, w.deviceId, "127.0.0.1");
      assert.equal((await client.get(local)).statusCode, 200);
    });

    it("without a gateway: redirect_url, or the connected page; never a URL from the request", async () => {
      const w = await makeWorld(t, { redirect_url: "https://cafe.example/" });
      const client = new PortalClient(t.app);
      const page = await client.get(`${w.path}?userurl=https://evil.example/&continue_url=https://evil.example/`);
      const res = await client.post("/portal/login/email", { state: stateOf(page.body), email: "eve@example.com", redirect: "https://evil.example/" });
      assert.equal(res.statusCode, 303);
      assert.equal(res.location, "https://cafe.example/");
      const plain = await makeWorld(t, { redirect_url: "" });
      const page2 = await client.get(plain.path);
      const done = await client.post("/portal/login/email", { state: stateOf(page2.body), email: "eve@example.com" });
      assert.equal(done.statusCode, 200);
      assert.match(done.body, /You are online/);
    });
  });
}
