import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, coovaUrl, makeWorld, stateOf } from "./portal-world.js";

for (const dialect of DIALECTS) {
  describe(`portal pages (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: "portal-secret-for-tests" });
    });
    after(async () => t.close());

    it("serves the location's default campaign with its texts, colours and terms, and only its methods", async () => {
      const w = await makeWorld(t);
      const page = await new PortalClient(t.app).get(w.path);
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers["content-type"]), /^text\/html/);
      assert.match(page.body, /<html lang="en" dir="ltr">/);
      assert.match(page.body, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
      assert.match(page.body, /<title>Welcome to Cafe Blau<\/title>/);
      assert.match(page.body, /<h1>Welcome to Cafe Blau<\/h1>/);
      assert.match(page.body, /<footer><p>Cafe Blau, 1 Main Street<\/p><\/footer>/);
      assert.match(page.body, /WiFi network: CafeWiFi/);
      assert.match(page.body, /:root\{--fg:#0b3d91;--bg:#fdf6e3\}/);
      assert.match(page.body, /<p>Be <strong>nice<\/strong>\.<\/p>/, "terms keep their allowed markup");
      for (const action of ["custom", "email", "clickthrough"]) assert.match(page.body, new RegExp(`action="/portal/login/${action}"`));
      for (const absent of ["sms", "oauth/facebook", "oauth/twitter", "oauth/instagram", "oauth/linkedin"]) {
        assert.doesNotMatch(page.body, new RegExp(`action="/portal/login/${absent}"`));
      }
      assert.ok(Buffer.byteLength(page.body) < 100 * 1024, `page weight ${Buffer.byteLength(page.body)} bytes`);
    });

    it("labels every input, has no script, and styles only through the CSP nonce", async () => {
      const w = await makeWorld(t);
      const page = await new PortalClient(t.app).get(w.path);
      const csp = String(page.headers["content-security-policy"]);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /frame-ancestors 'none'/);
      const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce);
      assert.match(page.body, new RegExp(`<style nonce="${nonce.replace(/[+/=]/g, (c) => `\\${c}`)}">`));
      assert.doesNotMatch(page.body, /<script|style="|\son[a-z]+=/i);
      assert.equal(page.headers["referrer-policy"], "no-referrer");
      assert.equal(page.headers["cache-control"], "no-store");
      const inputs = [...page.body.matchAll(/<input id="([^"]+)"[^>]*>/g)].map((m) => m[1]);
      assert.ok(inputs.length >= 4);
      for (const id of inputs) assert.match(page.body, new RegExp(`<label[^>]* for="${id}"`), `label for ${id}`);
    });

    it("shows the first built-in template when the location has no campaign", async () => {
      const loc = await t.call("POST", "create-or-update-location", locationParams());
      const read = await t.call("GET", "get-location", { location_ids: String(loc.body.location_id) });
      const page = await new PortalClient(t.app).get(read.body.data[0].url);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h1>Welcome! Tell us who you are<\/h1>/);
      assert.match(page.body, /action="\/portal\/login\/custom"/);
      assert.doesNotMatch(page.body, /action="\/portal\/login\/clickthrough"/);
    });

    it("serves each campaign at its filename; without a gateway it is a preview that cannot log in", async () => {
      const w = await makeWorld(t, { title_text: "Campaign page" });
      const client = new PortalClient(t.app);
      const page = await client.get(`/portal/c/${w.campaignFilename}`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h1>Campaign page<\/h1>/);
      assert.match(page.body, /This is a preview/);
      const login = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(login.statusCode, 400);
      assert.match(login.body, /Connect to the WiFi to log in/);
    });

    it("records a campaign page login at the location of the AP that sent the guest", async () => {
      const w = await makeWorld(t);
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(`/portal/c/${w.campaignFilename}`, { called: w.apMac, mac: "02:00:00:00:00:99" }));
      assert.equal(page.statusCode, 200, page.body);
      const login = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(login.statusCode, 303);
      const rows = await t.db.selectFrom("logins").selectAll().where("location_id", "=", w.locationId).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].campaign_id, w.campaignId);
    });

    it("escapes campaign texts and keeps only safe markup in the terms", async () => {
      const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'`;
      const w = await makeWorld(t, {
        title_text: evil,
        footer_text: evil,
        custom_terms: `<p onclick="alert(3)">Terms <a href="javascript:alert(4)">x</a></p><script>alert(5)</script><iframe src="https://evil.example"></iframe>`,
      });
      const page = await new PortalClient(t.app).get(w.path);
      // Tags and attributes are gone; the texts survive as visible, inert characters.
      assert.doesNotMatch(page.body, /<script|<img|<iframe|\son[a-z]+="|href="javascript:/i);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;img src=x onerror=alert\(2\)&gt;&quot;&#39;/);
    });

    it("keeps text readable when the campaign's colours clash", async () => {
      const w = await makeWorld(t, { text_color: "777777", background: "888888" });
      const page = await new PortalClient(t.app).get(w.path);
      assert.match(page.body, /--fg:#111111;--bg:#888888/);
    });

    it("answers unknown pages with a friendly HTML 404, and JSON to API clients", async () => {
      const html = await new PortalClient(t.app).get("/portal/l/no-such-slug");
      assert.equal(html.statusCode, 404);
      assert.match(String(html.headers["content-type"]), /^text\/html/);
      assert.match(html.body, /This WiFi login page does not exist/);
      assert.match(String(html.headers["content-security-policy"]), /default-src 'none'/);
      const json = await t.app.inject({ method: "GET", url: "/portal/c/no-such-file.html" });
      assert.equal(json.statusCode, 404);
      assert.equal(json.json().status, "error");
      const wrongMethod = await new PortalClient(t.app).get("/portal/login/custom");
      assert.equal(wrongMethod.statusCode, 405);
      assert.match(wrongMethod.body, /<h1>/);
    });
  });
}
