/**
 * The portal in the guest's language: Accept-Language picks it, the switcher's `lang` overrides it
 * without touching the gateway's signed hand-off (CoovaChilli's md), the pages after a form keep it,
 * errors come in it, right-to-left languages say so, and a campaign's own translations are shown.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LANGUAGES } from "../../src/i18n/languages.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, type World, coovaUrl, makeWorld, stateOf } from "./portal-world.js";

const UAM_SECRET = "lang-uam-secret";

class LangClient extends PortalClient {}

async function getWith(t: TestApp, url: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: "GET", url: url.replace(/^https?:\/\/[^/]+/, ""), headers: { accept: "text/html", ...headers } });
  return { statusCode: res.statusCode, body: res.body, cookie: String(res.headers["set-cookie"] ?? "").split(";")[0] };
}

for (const dialect of DIALECTS) {
  describe(`portal language (${dialect})`, () => {
    let t: TestApp;
    let w: World;
    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: "lang-portal-secret", COOVA_UAM_SECRET: UAM_SECRET });
      w = await makeWorld(t, {
        default_language: "en",
        translations: JSON.stringify({ fr: { title_text: "Bienvenue au Café Blau", custom_terms: "<p>Soyez <strong>sympa</strong>.</p>" } }),
      });
    });
    after(async () => t.close());

    const signed = () => coovaUrl(w.url, { called: w.apMac, mac: "02:00:00:00:00:31" }, UAM_SECRET);

    it("follows Accept-Language by weight and lookup, else the campaign's default language", async () => {
      const de = await getWith(t, signed(), { "accept-language": "da, de-AT;q=0.9, en;q=0.5" });
      assert.equal(de.statusCode, 200, de.body);
      assert.match(de.body, /<html lang="de" dir="ltr">/);
      assert.match(de.body, /<label for="custom-email">E-Mail-Adresse<\/label>/);
      // The campaign has no German title: its English one, marked as English.
      assert.match(de.body, /<h1 lang="en">Welcome to Cafe Blau<\/h1>/);
      const none = await getWith(t, signed(), { "accept-language": "sv, da;q=0.8" });
      assert.match(none.body, /<html lang="en" dir="ltr">/);
      const zh = await getWith(t, signed(), { "accept-language": "zh-CN,zh;q=0.9" });
      assert.match(zh.body, /<html lang="zh-Hans" dir="ltr">/);
    });

    it("shows a switcher whose links keep the gateway's query as it was, and the signed hand-off still checks", async () => {
      const url = signed();
      const page = await getWith(t, url, { "accept-language": "en" });
      const query = url.slice(url.indexOf("?") + 1);
      for (const l of LANGUAGES) assert.ok(page.body.includes(`href="?${query.replace(/&/g, "&amp;")}&amp;lang=${l.tag}" lang="${l.tag}" hreflang="${l.tag}"`), l.tag);
      assert.match(page.body, /<nav class="langs" aria-label="Language">/);
      assert.match(page.body, /aria-current="true">English</);
      // Following the Arabic link: the md of the gateway's own address still checks (no 400), the page is right to left.
      const ar = await getWith(t, `${url}&lang=ar`, { "accept-language": "en" });
      assert.equal(ar.statusCode, 200, ar.body);
      assert.match(ar.body, /<html lang="ar" dir="rtl">/);
      assert.match(ar.body, /aria-current="true">العربية</);
      // A forged md still fails with the parameter added.
      const forged = await getWith(t, `${url.replace(/md=[0-9A-F]+/, "md=00")}&lang=ar`, {});
      assert.equal(forged.statusCode, 400);
      assert.match(forged.body, /<html lang="ar" dir="rtl">/);
    });

    it("keeps the chosen language after a form, shows the campaign's own translation and the terms version of the French text", async () => {
      const client = new LangClient(t.app);
      const page = await client.get(`${signed()}&lang=fr`);
      assert.match(page.body, /<html lang="fr" dir="ltr">/);
      assert.match(page.body, /<h1>Bienvenue au Café Blau<\/h1>/);
      assert.match(page.body, /Soyez <strong>sympa<\/strong>/);
      const bad = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "", email: "nope" });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /<html lang="fr" dir="ltr">/);
      assert.match(bad.body, /id="custom-email-error">Veuillez saisir une adresse e-mail valide\.</);
      assert.match(bad.body, /role="alert">Veuillez vérifier le formulaire ci-dessous\. 2 champs sont à corriger\.</);
      const ok = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "Anne", email: "anne@example.fr", accept_terms: "1" });
      assert.equal(ok.statusCode, 303, ok.body);
      const guest = await t.db.selectFrom("guests").select(["locale"]).where("email", "=", "anne@example.fr").executeTakeFirstOrThrow();
      assert.equal(guest.locale, "fr");
    });

    it("answers errors in the language of the form or the browser", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/portal/login/custom",
        headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
        payload: "state=forged&lang=ja",
      });
      assert.equal(res.statusCode, 403);
      assert.match(res.body, /<html lang="ja" dir="ltr">/);
      assert.match(res.body, /このログインページは有効期限が切れました/);
      const missing = await getWith(t, "/portal/l/no-such-place", { "accept-language": "pl" });
      assert.equal(missing.statusCode, 404);
      assert.match(missing.body, /Nie znaleziono strony/);
    });

    it("refuses a translation in a language it does not ship, or with unknown fields, naming the field", async () => {
      const res = await t.call("POST", "create-or-update-campaign", {
        campaign_id: w.campaignId,
        name: "Cafe",
        default_language: "xx",
        translations: JSON.stringify({ sv: { title_text: "Välkommen" }, fr: { heading: "x" } }),
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.body.message).sort(), ["default_language", "translations"]);
      assert.equal(res.body.message.translations.length, 2);
      const low = await t.call("POST", "create-or-update-campaign", { campaign_id: w.campaignId, name: "Cafe", text_color: "777777", background: "888888" });
      assert.equal(low.statusCode, 200);
      assert.match(low.body.warnings[0], /contrast of 1\.\d\d:1, below the 4\.5:1/);
    });
  });
}
