/**
 * The guest journey in Debian's headless Chromium: a gateway sends the guest to the location's
 * page (Coova and Meraki query strings), the guest logs in by each method and lands on the
 * gateway's logon or grant URL (a local stand-in), the Coova credential passes our RADIUS server
 * (asked by radclient, as the gateway would), and the API then shows the guests and the counts.
 * Screenshots at a phone's width go to test-artifacts/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { localDay } from "../../src/modules/guests/local-day.js";
import { coovaPapDecode } from "../../src/gateways/coova/coova.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { radclient } from "../radius/radclient.js";
import { type OAuthMock, startOAuthMock } from "./oauth-mock.js";
import { type World, coovaUrl, makeWorld, merakiUrl, randomMac, setApAddress } from "./portal-world.js";
import { type StandIn, type TwilioStandIn, startGatewayStandIn, startTwilioStandIn } from "./stand-ins.js";

const UAM_SECRET = "browser-uam-secret";
const ARTIFACTS = "test-artifacts";
const CHALLENGE = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

for (const dialect of DIALECTS) {
  describe(`portal in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let gateway: StandIn;
    let twilio: TwilioStandIn;
    let oauth: OAuthMock;
    let radius: RadiusListener;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      [gateway, twilio, oauth] = await Promise.all([startGatewayStandIn(), startTwilioStandIn(), startOAuthMock()]);
      const port = await freeTcpPort();
      t = await createTestApp(dialect, {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORTAL_SECRET: "browser-portal-secret",
        COOVA_UAM_SECRET: UAM_SECRET,
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
        TWILIO_API_BASE_URL: twilio.url,
        TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000001",
        TWILIO_AUTH_TOKEN: "token",
        TWILIO_FROM: "+15005550006",
        RADIUS_HOST: "127.0.0.1",
        RADIUS_AUTH_PORT: "0",
        RADIUS_ACCT_PORT: "0",
        ...oauth.env,
      });
      await t.app.listen({ host: "127.0.0.1", port });
      radius = await startRadius({ db: t.db, config: t.config, log: t.app.log });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await radius?.stop();
      await t?.close();
      await Promise.all([gateway?.close(), twilio?.close(), oauth?.server.stop()]);
    });

    async function phonePage(): Promise<Page> {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        userAgent:
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      });
      return context.newPage();
    }

    /** A location whose campaign offers every method, its AP registered at the stand-in gateway's address. */
    async function everyMethodWorld(): Promise<World> {
      const world = await makeWorld(t, {
        title_text: "Willkommen im Café Blau",
        footer_text: "Café Blau · Hauptstraße 1",
        text_color: "0b3d91",
        background: "fdf6e3",
        custom_terms: '<p>Use the network <em>lawfully</em>. <a href="https://cafe.example/terms">Full terms</a></p>',
        redirect_url: "",
        login_options: JSON.stringify({ custom: 1, email: 1, sms: 1, clickthrough: 1, facebook: 1, twitter: 1, instagram: 1, linkedin: 1 }),
      });
      // The stand-in gateway answers on loopback, which is also where Meraki's grant URL points here.
      await setApAddress(t, world.deviceId, "127.0.0.1");
      return world;
    }

    const coova = (w: World, clientMac: string) =>
      coovaUrl(w.url, { uamip: "127.0.0.1", uamport: gateway.port, challenge: CHALLENGE, called: w.apMac, mac: clientMac, userurl: "http://example.org/" }, UAM_SECRET);
    const meraki = (w: World, clientMac: string) =>
      merakiUrl(w.url, { grant: `${gateway.url}/splash/grant`, cont: "http://example.org/news", node: w.apMac, client: clientMac });
    const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/portal-${dialect}-${name}.png`, fullPage: true });

    it("shows the campaign's texts and colours as the gateway sends the guest, keyboard first", async () => {
      const w = await everyMethodWorld();
      const page = await phonePage();
      const res = await page.goto(coova(w, randomMac()));
      assert.equal(res?.status(), 200);
      assert.equal(await page.textContent("h1"), "Willkommen im Café Blau");
      assert.equal(await page.textContent("footer"), "Café Blau · Hauptstraße 1");
      assert.equal(await page.textContent(".ssid"), "WiFi network: CafeWiFi");
      assert.equal(await page.textContent("#terms em"), "lawfully");
      const colours = await page.evaluate(() => {
        const s = getComputedStyle(document.body);
        return [s.color, s.backgroundColor, document.documentElement.lang];
      });
      assert.deepEqual(colours, ["rgb(11, 61, 145)", "rgb(253, 246, 227)", "en"]);
      for (const label of ["Continue with Facebook", "Continue with Twitter", "Continue with Instagram", "Continue with LinkedIn", "Text me a code", "Connect with e-mail"]) {
        assert.equal(await page.getByRole("button", { name: label }).count(), 1, label);
      }
      assert.equal(await page.getByLabel("Your name").count(), 1);
      // The language switcher comes first (twelve links), then the first way in.
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.closest("nav.langs") !== null), true, "the switcher first");
      for (let i = 0; i < 20 && (await page.evaluate(() => document.activeElement?.closest("nav.langs") !== null)); i++) await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Continue with Facebook");
      const bytes = await page.evaluate(() => document.documentElement.outerHTML.length);
      assert.ok(bytes < 100 * 1024);
      await shot(page, "coova-page");
      await page.context().close();
    });

    it("logs in by each method, lands on the gateway, passes RADIUS, and the API shows guests and counts", async () => {
      const w = await everyMethodWorld();

      // Custom form over Coova; the credential then goes to our RADIUS server as the gateway would send it.
      const annMac = randomMac();
      const byForm = await phonePage();
      await byForm.goto(coova(w, annMac));
      await byForm.getByLabel("Your name").fill("Ann Example");
      await byForm.locator("#custom-email").fill("ann@example.com");
      await shot(byForm, "custom-form");
      await Promise.all([byForm.waitForURL(`${gateway.url}/logon?**`), byForm.locator("#custom-email").press("Enter")]);
      const logon = new URL(byForm.url());
      assert.equal(logon.searchParams.get("userurl"), "http://example.org/");
      const password = coovaPapDecode(logon.searchParams.get("password")!, CHALLENGE, UAM_SECRET);
      const secret = (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", w.deviceId).executeTakeFirstOrThrow()).radius_secret;
      const dashed = (m: string) => m.replace(/:/g, "-");
      const accepted = await radclient(
        radius.authPort,
        "auth",
        secret,
        [
          `User-Name = "${logon.searchParams.get("username")}"`,
          `User-Password = "${password}"`,
          `Called-Station-Id = "${dashed(w.apMac)}:CafeWiFi"`,
          `Calling-Station-Id = "${dashed(annMac)}"`,
          "Message-Authenticator = 0x00",
        ],
        3,
      );
      assert.equal(accepted.code, "Access-Accept", accepted.output);
      await byForm.context().close();

      const byEmail = await phonePage();
      await byEmail.goto(coova(w, randomMac()));
      await byEmail.locator("#email-email").fill("bea@example.com");
      await Promise.all([byEmail.waitForURL(`${gateway.url}/logon?**`), byEmail.getByRole("button", { name: "Connect with e-mail" }).click()]);
      await byEmail.context().close();

      const bySms = await phonePage();
      await bySms.goto(coova(w, randomMac()));
      await bySms.getByLabel("Mobile number").fill("+49 151 2345 6789");
      await bySms.getByRole("button", { name: "Text me a code" }).click();
      await bySms.getByLabel("Code", { exact: true }).fill(twilio.lastCode("+4915123456789"));
      await shot(bySms, "sms-code");
      await Promise.all([bySms.waitForURL(`${gateway.url}/logon?**`), bySms.getByRole("button", { name: "Connect", exact: true }).click()]);
      await bySms.context().close();

      for (const network of ["Facebook", "Twitter", "Instagram", "LinkedIn"]) {
        const page = await phonePage();
        await page.goto(coova(w, randomMac()));
        await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.getByRole("button", { name: `Continue with ${network}` }).click()]);
        await page.context().close();
      }

      const byClick = await phonePage();
      await byClick.goto(meraki(w, randomMac()));
      await byClick.getByLabel("I accept the terms of use").check();
      await shot(byClick, "meraki-click-through");
      await Promise.all([byClick.waitForURL(`${gateway.url}/splash/grant?**`), byClick.getByRole("button", { name: "Connect", exact: true }).last().click()]);
      const grant = new URL(byClick.url());
      assert.equal(grant.searchParams.get("continue_url"), "http://example.org/news");
      assert.equal(grant.searchParams.get("duration"), "86400");
      await shot(byClick, "meraki-granted");
      await byClick.context().close();

      const day = localDay(new Date(), "Europe/Berlin");
      const list = await t.call("GET", "social-user-list", { location_ids: String(w.locationId), from_date: day, to_date: day });
      assert.equal(list.statusCode, 200, JSON.stringify(list.body));
      assert.equal(list.body.data.length, 8, "custom, e-mail, SMS, four social networks, click-through");
      const ids = list.body.data.map((g: { social_user_id: number }) => g.social_user_id).join(",");
      const profiles = await t.call("GET", "get-social-user-profile", { user_ids: ids });
      assert.equal(profiles.statusCode, 200, JSON.stringify(profiles.body));
      const networks = profiles.body.data.map((p: { social_network: string }) => p.social_network).sort();
      assert.deepEqual(networks, ["Cuser", "FBUser", "FWuser", "IGuser", "LIuser", "Muser", "TWuser", "Twilio"]);
      const ann = profiles.body.data.find((p: { email: string }) => p.email === "ann@example.com");
      assert.equal(ann.full_name, "Ann Example");
      assert.equal(ann.location_id, w.locationId);
      assert.equal(ann.user_mac, annMac);
      assert.equal(ann.user_device_os_name, "iOS");
      const logins = await t.call("GET", "get-social-logins", { location_id: String(w.locationId), from_date: day, to_date: day });
      assert.equal(logins.statusCode, 200, JSON.stringify(logins.body));
      assert.deepEqual(logins.body.categories, [day]);
      const counted = Object.fromEntries(logins.body.series.map((s: { name: string; data: number[] }) => [s.name, s.data[0]]));
      for (const series of ["Facebook", "Custom", "Instagram", "Twitter", "SMS", "Click-through", "E-mail", "LinkedIn"]) {
        assert.equal(counted[series], 1, series);
      }
      const visits = await t.call("GET", "get-visits", { location_id: String(w.locationId), from_date: day, to_date: day });
      assert.deepEqual(visits.body.series, [{ name: "Visits", data: [8] }]);
    });

    it("refuses a Meraki grant URL on someone else's host, in the browser too", async () => {
      const page = await phonePage();
      const w = await everyMethodWorld();
      const res = await page.goto(merakiUrl(w.url, { grant: "https://evil.example/splash/grant", node: w.apMac }));
      assert.equal(res?.status(), 400);
      assert.match((await page.textContent("main")) ?? "", /invalid request/);
      await page.context().close();
    });

    it("runs none of the script, event-handler or javascript: payloads put in every text field", async () => {
      const payload = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><svg onload="window.__pwned=3"></svg>"'><a href="javascript:window.__pwned=4">x</a>`;
      const evil = await makeWorld(t, { login_options: JSON.stringify({ custom: 1, clickthrough: 1 }) });
      const row = await t.db.selectFrom("campaigns").select("payload").where("id", "=", evil.campaignId).executeTakeFirstOrThrow();
      const fields = { ssid: payload, title_text: payload, footer_text: payload, custom_terms: `${payload}<p onmouseover="window.__pwned=5">terms</p>`, redirect_url: "javascript:window.__pwned=6", text_color: `000;}</style><script>window.__pwned=7</script>`, background: "fff" };
      await t.db.updateTable("campaigns").set({ payload: JSON.stringify({ ...JSON.parse(row.payload), ...fields }) }).where("id", "=", evil.campaignId).execute();
      const page = await phonePage();
      const dialogs: string[] = [];
      page.on("dialog", async (d) => {
        dialogs.push(d.message());
        await d.dismiss();
      });
      await page.goto(evil.url);
      // Fire what the stripped handlers would have listened to, and follow the stripped link.
      await page.locator("#terms p").last().dispatchEvent("mouseover");
      await page.locator("#terms a").first().click();
      assert.equal(await page.textContent("h1"), payload, "the title shows as text");
      const found = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        scripts: document.scripts.length,
        handlers: [...document.querySelectorAll("*")].flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name)),
        jsLinks: [...document.querySelectorAll("[href],[src],[action]")].filter((el) =>
          /^\s*javascript:/i.test(el.getAttribute("href") ?? el.getAttribute("src") ?? el.getAttribute("action") ?? ""),
        ).length,
      }));
      assert.deepEqual(found, { pwned: undefined, scripts: 0, handlers: [], jsLinks: 0 });
      assert.deepEqual(dialogs, []);
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
      await page.waitForLoadState();
      assert.match((await page.textContent("h1")) ?? "", /You are online/, "javascript: redirect_url is never followed");
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      await shot(page, "hostile-campaign");
      await page.context().close();
    });
  });
}
