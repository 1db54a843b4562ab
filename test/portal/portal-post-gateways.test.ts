/**
 * The gateways whose hand-off is a posted form (MikroTik, Meraki sign-on, Aruba, RUCKUS, Cambium),
 * through app.inject(): the login form is only ever aimed at the address the redirect gave and the
 * protocol allows (the gateway's LAN address, Aruba's fixed name, Meraki's cloud, or the AP's
 * registered address); bad or missing parameters get the portal's error page and write nothing;
 * the hand-off page carries the credential in hidden fields, a CSP that allows only that target
 * and the one nonce'd script, and the script is served as JavaScript.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { octalBytes } from "../../src/gateways/mikrotik/mikrotik.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, countLogins, makeWorld, randomMac, setApAddress, stateOf } from "./portal-world.js";

describe("MikroTik's octal escapes", () => {
  it("reads RouterOS's \\ooo escapes and nothing else", () => {
    assert.deepEqual(octalBytes("\\341\\000\\377"), Buffer.from([0xe1, 0, 0xff]));
    for (const bad of ["", "341", "\\9", "\\400", "\\34", "\\341x", "abc"]) assert.equal(octalBytes(bad), undefined, bad);
  });
});

for (const dialect of DIALECTS) {
  describe(`posted gateway hand-offs (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: "post-gateways-secret", PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000" });
    });
    after(async () => t.close());

    const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

    it("refuses a login URL the redirect may not name, and broken parameters, with the error page", async () => {
      const w = await makeWorld(t);
      const ap = w.apMac;
      const client = new PortalClient(t.app);
      const mk = (p: Record<string, string>) => `${w.path}?${q({ "link-login-only": "http://10.5.50.1/login", "device-mac": ap, mac: randomMac(), ...p })}`;
      const mr = (p: Record<string, string>) => `${w.path}?${q({ login_url: "https://n143.network-auth.com/splash/login?mauth=x", ap_mac: ap.toLowerCase(), ...p })}`;
      const ar = (p: Record<string, string>) => `${w.path}?${q({ cmd: "login", apmac: ap.toLowerCase(), essid: "Guest", switchip: "securelogin.arubanetworks.com", ...p })}`;
      const rk = (p: Record<string, string>) => `${w.path}?${q({ sip: "192.168.40.2", mac: ap.toLowerCase(), client_mac: randomMac(), uip: "192.168.40.77", ...p })}`;
      const cb = (p: Record<string, string>) => `${w.path}?${q({ ga_srvr: "10.10.1.1", ga_ap_mac: ap.replace(/:/g, "-"), ga_cmac: randomMac(), ...p })}`;
      const allowed = [mk({}), mk({ "chap-id": "\\341", "chap-challenge": "\\001\\002\\003" }), mr({}), ar({}), ar({ switchip: "10.0.0.2", vcname: "instant" }), rk({}), cb({})];
      for (const url of allowed) assert.equal((await client.get(url)).statusCode, 200, url);
      const refused = [
        mk({ "link-login-only": "http://evil.example/login" }),
        mk({ "link-login-only": "http://8.8.8.8/login" }),
        mk({ "link-login-only": "javascript:alert(1)" }),
        mk({ "device-mac": "" }),
        mk({ "chap-id": "\\341" }),
        mk({ "chap-id": "\\341\\342", "chap-challenge": "\\001" }),
        mk({ "chap-id": "341", "chap-challenge": "\\001" }),
        mr({ login_url: "https://evil.example/splash/login" }),
        mr({ login_url: "http://n143.network-auth.com/splash/login" }),
        mr({ login_url: "https://network-auth.com.evil.example/x" }),
        mr({ ap_mac: "nope" }),
        ar({ switchip: "8.8.8.8" }),
        ar({ switchip: "evil.example" }),
        ar({ apmac: "" }),
        rk({ sip: "8.8.8.8" }),
        rk({ sip: "zd.example" }),
        rk({ uip: "<script>" }),
        cb({ ga_srvr: "8.8.8.8" }),
        cb({ ga_srvr: "10.10.1.1:880" }),
        cb({ ga_ap_mac: "" }),
      ];
      for (const url of refused) {
        const r = await client.get(url);
        assert.equal(r.statusCode, 400, url);
        assert.match(r.body, /incomplete or invalid request/, url);
      }
      const unknownAp = await client.get(`${w.path}?${q({ cmd: "login", apmac: "02:00:00:00:00:99", essid: "Guest" })}`);
      assert.equal(unknownAp.statusCode, 403);
      assert.equal((await countLogins(t, w.locationId)).length, 0);
    });

    it("allows the AP's registered address as a target, and only that one", async () => {
      const w = await makeWorld(t);
      const client = new PortalClient(t.app);
      const url = (host: string) => `${w.path}?${q({ login_url: `https://${host}/splash/login`, ap_mac: w.apMac })}`;
      assert.equal((await client.get(url("203.0.113.9"))).statusCode, 400);
      await setApAddress(t, w.deviceId, "203.0.113.9");
      assert.equal((await client.get(url("203.0.113.9"))).statusCode, 200);
      assert.equal((await client.get(url("203.0.113.10"))).statusCode, 400);
    });

    it("answers the login with a page that posts the credential to the gateway, under a CSP that allows only it", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      const client = new PortalClient(t.app);
      const clientMac = randomMac();
      const page = await client.get(`${w.path}?${q({ sip: "192.168.40.2", mac: w.apMac, client_mac: clientMac, uip: "192.168.40.77", url: "http://example.org/news" })}`);
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers["content-security-policy"]), /form-action 'self' http:\/\/192\.168\.40\.2:9997(;|$)/);
      const res = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(res.statusCode, 200, res.body);
      const csp = String(res.headers["content-security-policy"]);
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce, csp);
      // The gateway's login URL, and where it then redirects the guest (the url it reported).
      assert.match(csp, /form-action 'self' http:\/\/192\.168\.40\.2:9997 http:\/\/example\.org(;|$)/);
      assert.match(res.body, /<form id="handoff" method="post" action="http:\/\/192\.168\.40\.2:9997\/login">/);
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(res.body)?.[1];
      assert.match(field("username") ?? "", /^gw-/);
      assert.equal(field("password")?.length, 16);
      assert.equal(field("ip"), "192.168.40.77");
      assert.equal(field("client_mac"), clientMac);
      assert.equal(field("url"), "http://example.org/news");
      assert.ok(res.body.includes(`<script nonce="${nonce}" src="/portal/assets/handoff.js"></script>`));
      assert.equal((await countLogins(t, w.locationId)).length, 1);
      const credential = await t.db.selectFrom("portal_credentials").selectAll().where("username", "=", field("username")!).executeTakeFirstOrThrow();
      assert.equal(credential.device_id, w.deviceId);
      assert.equal(credential.client_mac, clientMac);

      const script = await t.app.inject({ method: "GET", url: "/portal/assets/handoff.js" });
      assert.equal(script.statusCode, 200);
      assert.match(String(script.headers["content-type"]), /^text\/javascript/);
      assert.match(script.body, /getElementById\("handoff"\)/);
    });

    it("lets the login page's form-action allow where Meraki's grant then redirects (continue_url)", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      await setApAddress(t, w.deviceId, "127.0.0.1");
      const client = new PortalClient(t.app);
      const meraki = await client.get(`${w.path}?${q({ base_grant_url: "https://n1.network-auth.com/splash/grant", user_continue_url: "http://news.example/today", node_mac: w.apMac })}`);
      assert.equal(meraki.statusCode, 200);
      assert.match(String(meraki.headers["content-security-policy"]), /form-action 'self' https:\/\/n1\.network-auth\.com http:\/\/news\.example(;|$)/);
    });

    it("hashes MikroTik's password with the router's CHAP id and challenge, and shows the router's error", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      const client = new PortalClient(t.app);
      const params = { "link-login-only": "http://10.5.50.1/login", "link-orig": "http%3A%2F%2Fexample.org%2F", "device-mac": w.apMac, mac: randomMac(), "chap-id": "\\007", "chap-challenge": "\\001\\002\\003\\004" };
      const page = await client.get(`${w.path}?${q(params)}`);
      const res = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(res.body)?.[1];
      const username = field("username")!;
      const { password } = await t.db.selectFrom("portal_credentials").select("password").where("username", "=", username).executeTakeFirstOrThrow();
      const { createHash } = await import("node:crypto");
      const expected = createHash("md5").update(Buffer.from([7])).update(password).update(Buffer.from([1, 2, 3, 4])).digest("hex");
      assert.equal(field("password"), expected);
      assert.equal(field("dst"), "http://example.org/");
      const failed = await client.get(`${w.path}?${q({ ...params, error: "invalid username or password" })}`);
      assert.match(failed.body, /did not accept the login/);
    });
  });
}
