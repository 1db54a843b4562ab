import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalSigner } from "../../src/portal/portal-signer.js";
import { openPageState, sealPageState } from "../../src/portal/portal-state.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, countLogins, makeWorld, merakiUrl, stateOf } from "./portal-world.js";

const SECRET = "portal-secret-for-tests";
const GRANT = "https://n1.network-auth.com/splash/grant";

describe("page state", () => {
  it("opens only for its own session, unexpired and untampered", () => {
    const signer = new PortalSigner(SECRET);
    const token = sealPageState(signer, { sid: "s1", loc: 1, cmp: 2, dev: null, mac: "", gw: null });
    assert.equal(openPageState(signer, token, "s1")?.cmp, 2);
    assert.equal(openPageState(signer, token, "s2"), undefined, "another browser's session");
    assert.equal(openPageState(signer, token, undefined), undefined, "no session cookie");
    assert.equal(openPageState(new PortalSigner("another-secret-entirely"), token, "s1"), undefined);
    const [body, mac] = token.split(".");
    const forged = Buffer.from(Buffer.from(body, "base64url").toString().replace('"cmp":2', '"cmp":3')).toString("base64url");
    assert.equal(openPageState(signer, `${forged}.${mac}`, "s1"), undefined);
    const old = sealPageState(signer, { sid: "s1", loc: 1, cmp: 2, dev: null, mac: "", gw: null }, Date.now() - 2 * 3600_000);
    assert.equal(openPageState(signer, old, "s1"), undefined, "expired");
    assert.equal(signer.open("oauth", token), undefined, "a page state is no OAuth cookie");
  });
});

for (const dialect of DIALECTS) {
  describe(`portal security (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: SECRET, PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000" });
    });
    after(async () => t.close());

    it("refuses login POSTs without the session cookie, from another session, or with a forged state", async () => {
      const w = await makeWorld(t);
      const guest = new PortalClient(t.app);
      const page = await guest.get(w.path);
      const state = stateOf(page.body);
      const form = { state, email: "x@example.com" };
      // A cross-site form post carries no portal cookie (SameSite=Lax) and another browser has its own.
      const noCookie = await t.app.inject({
        method: "POST",
        url: "/portal/login/email",
        headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(form).toString(),
      });
      assert.equal(noCookie.statusCode, 403);
      assert.match(noCookie.body, /This login page has expired/);
      const attacker = new PortalClient(t.app);
      await attacker.get(w.path);
      assert.equal((await attacker.post("/portal/login/email", form)).statusCode, 403);
      assert.equal((await guest.post("/portal/login/email", { ...form, state: `${state.slice(0, -2)}xx` })).statusCode, 403);
      assert.equal((await guest.post("/portal/login/email", { email: "x@example.com" })).statusCode, 403);
      assert.equal((await countLogins(t, w.locationId)).length, 0);
      assert.equal((await guest.post("/portal/login/email", form)).statusCode, 200, "the guest's own post goes through");
    });

    it("sets the session cookie HttpOnly and SameSite=Lax on the portal path", async () => {
      const w = await makeWorld(t);
      const res = await t.app.inject({ method: "GET", url: w.path, headers: { accept: "text/html" } });
      const cookie = String(res.headers["set-cookie"]);
      assert.match(cookie, /^gwp_sid=[A-Za-z0-9_-]{22}; Path=\/portal\/; HttpOnly; SameSite=Lax$/);
    });

    it("counts every login request of an address against its limit, failed and forged ones too, with Retry-After", async () => {
      const limitedApp = await createTestApp(dialect, { PORTAL_SECRET: SECRET, PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "3" });
      try {
        const w = await makeWorld(limitedApp);
        const a = new PortalClient(limitedApp.app);
        const pageA = await a.get(merakiUrl(w.path, { grant: GRANT, node: w.apMac, client: "02:aa:00:00:00:01" }));
        const stateA = stateOf(pageA.body);
        // Invalid e-mails and a forged state: attempts count whether or not they succeed.
        assert.equal((await a.post("/portal/login/email", { state: stateA, email: "nope" })).statusCode, 400);
        assert.equal((await a.post("/portal/login/email", { state: stateA, email: "nope" })).statusCode, 400);
        assert.equal((await a.post("/portal/login/email", { state: `${stateA.slice(0, -2)}xx`, email: "ok@example.com" })).statusCode, 403);
        const limited = await a.post("/portal/login/email", { state: stateA, email: "ok@example.com" });
        assert.equal(limited.statusCode, 429);
        assert.ok(Number(limited.headers["retry-after"]) > 0);
        assert.match(limited.body, /Too many login attempts/);
        assert.equal((await countLogins(limitedApp, w.locationId)).length, 0);
      } finally {
        await limitedApp.close();
      }
    });

    it("refuses methods the campaign does not offer, and social or SMS methods the service has no keys for", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ email: 1, facebook: 1, sms: 1 }) });
      const client = new PortalClient(t.app);
      const page = await client.get(w.path);
      assert.doesNotMatch(page.body, /oauth\/facebook|login\/sms/, "unconfigured methods are not shown");
      const state = stateOf(page.body);
      for (const path of ["/portal/login/custom", "/portal/login/clickthrough", "/portal/login/sms", "/portal/login/oauth/facebook"]) {
        const res = await client.post(path, { state, name: "A", email: "a@example.com", accept_terms: "1", phone: "+4915112345678" });
        assert.equal(res.statusCode, 400, path);
        assert.match(res.body, /not available here/);
      }
      assert.equal((await client.post("/portal/login/oauth/myspace", { state })).statusCode, 404);
      assert.equal((await countLogins(t, w.locationId)).length, 0);
    });

    it("re-renders the form with each field's error and the values typed, recording nothing", async () => {
      const w = await makeWorld(t);
      const client = new PortalClient(t.app);
      const page = await client.get(w.path);
      const res = await client.post("/portal/login/custom", { state: stateOf(page.body), name: " ", email: "not-an-email" });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /<span class="error" id="custom-name-error">Please enter your name\.<\/span>/);
      assert.match(res.body, /<span class="error" id="custom-email-error">Please enter a valid e-mail address\.<\/span>/);
      assert.match(res.body, /id="custom-email"[^>]*value="not-an-email" aria-describedby="custom-email-error" aria-invalid="true"/);
      assert.equal((await countLogins(t, w.locationId)).length, 0);
    });

    it("asks for a phone in the custom form when the campaign wants one, and keys the guest on it without e-mail", async () => {
      const w = await makeWorld(t);
      const row = await t.db.selectFrom("campaigns").select("payload").where("id", "=", w.campaignId).executeTakeFirstOrThrow();
      const payload = { ...JSON.parse(row.payload), custom_fields: { name: true, email: false, phone: true } };
      await t.db.updateTable("campaigns").set({ payload: JSON.stringify(payload) }).where("id", "=", w.campaignId).execute();
      const client = new PortalClient(t.app);
      const page = await client.get(w.path);
      assert.match(page.body, /<input id="custom-phone" name="phone" type="tel"/);
      assert.doesNotMatch(page.body, /id="custom-email"/);
      const res = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "Cem", phone: "+49 151 1234 5678" });
      assert.equal(res.statusCode, 200);
      const [login] = await countLogins(t, w.locationId);
      const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", login.guest_id).executeTakeFirstOrThrow();
      assert.equal(guest.network_user_id, "+4915112345678");
      assert.equal(guest.phone_number, "+4915112345678");
    });
  });
}
