/**
 * Every portal page in every shipped language, in Chromium: 0 violations of axe-core's WCAG 2.1 A
 * and AA rules (the login page with every form method and a social login, the same page answering
 * a form with errors, the SMS code step, the connected page, an error page); a phone at 200 % zoom
 * scrolls only vertically; the page is usable by keyboard alone; nothing moves with
 * prefers-reduced-motion; and in the captive network assistants of iOS and Android (their user
 * agents) the social login points to the browser and the connected page does not navigate away.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { LANGUAGES } from "../../src/i18n/languages.js";
import { launchChromium } from "../helpers/browser.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { freeTcpPort } from "../helpers/ports.js";
import { type OAuthMock, startOAuthMock } from "./oauth-mock.js";
import { type World, coovaUrl, makeWorld } from "./portal-world.js";
import { type TwilioStandIn, startTwilioStandIn } from "./stand-ins.js";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const UAM_SECRET = "a11y-uam-secret";
/** iOS's captive network assistant (a WebKit sheet: no Safari token) and Android's CaptivePortalLogin (a WebView). */
const IOS_CNA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const ANDROID_CNA = "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36";
/** Windows has no assistant of its own: its connectivity check opens the default browser, Edge. */
const WINDOWS_EDGE = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0";

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
  });
}

describe("portal accessibility in every language, in Chromium", () => {
  let t: TestApp;
  let w: World;
  let base: string;
  let browser: Browser;
  let twilio: TwilioStandIn;
  let oauth: OAuthMock;

  before(async () => {
    [twilio, oauth] = await Promise.all([startTwilioStandIn(), startOAuthMock()]);
    const port = await freeTcpPort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp("sqlite", {
      PUBLIC_URL: base,
      PORTAL_SECRET: "a11y-portal-secret",
      COOVA_UAM_SECRET: UAM_SECRET,
      PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "10000",
      PORTAL_SMS_RATE_LIMIT_PER_MINUTE: "10000",
      TWILIO_API_BASE_URL: twilio.url,
      TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000001",
      TWILIO_AUTH_TOKEN: "token",
      TWILIO_FROM: "+15005550006",
      ...oauth.env,
    });
    await t.app.listen({ host: "127.0.0.1", port });
    w = await makeWorld(t, {
      login_options: JSON.stringify({ custom: 1, email: 1, sms: 1, voucher: 1, clickthrough: 1, facebook: 1 }),
      terms_required: "1",
      marketing_opt_in: "1",
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([twilio?.close(), oauth?.server.stop()]);
  });

  const gatewayUrl = (mac: string, res?: string) => coovaUrl(w.url, { called: w.apMac, mac, res }, UAM_SECRET);

  for (const [i, lang] of LANGUAGES.entries()) {
    it(`${lang.tag}: login page, form errors, SMS code, connected and error pages have no WCAG 2.1 AA violation`, async () => {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      try {
        await page.goto(`${gatewayUrl("02:00:00:00:11:01")}&lang=${lang.tag}`);
        assert.equal(await page.getAttribute("html", "lang"), lang.tag);
        assert.equal(await page.getAttribute("html", "dir"), lang.dir);
        assert.deepEqual(await axeViolations(page), [], "login page");
        if (lang.dir === "rtl") assert.equal(await page.evaluate(() => getComputedStyle(document.body).direction), "rtl");

        // The e-mail form sent empty of a valid address and unticked: errors beside the fields, announced.
        await page.fill("#email-email", "not-an-address");
        await page.evaluate(() => {
          for (const f of document.querySelectorAll("form")) f.noValidate = true;
        });
        await page.locator('form[action="/portal/login/email"] button[type=submit]').click();
        await page.waitForSelector("#email-email-error");
        assert.equal(await page.getAttribute("#email-email", "aria-invalid"), "true");
        assert.match((await page.getAttribute("#email-email", "aria-describedby")) ?? "", /email-email-error/);
        assert.equal(await page.getAttribute(".notice", "role"), "alert");
        assert.deepEqual(await axeViolations(page), [], "login page with errors");

        // The SMS code step.
        await page.goto(`${gatewayUrl("02:00:00:00:11:02")}&lang=${lang.tag}`);
        // A number per language: a number receives only a few codes per window.
        await page.fill("#sms-phone", `+49 151 2345 ${6700 + i}`);
        await page.check("#sms-terms");
        await page.locator('form[action="/portal/login/sms"] button[type=submit]').click();
        await page.waitForSelector("#sms-code");
        assert.equal(await page.getAttribute("html", "lang"), lang.tag);
        assert.deepEqual(await axeViolations(page), [], "SMS code page");

        await page.goto(`${gatewayUrl("02:00:00:00:11:03", "success")}&lang=${lang.tag}`);
        assert.equal(await page.getAttribute("html", "lang"), lang.tag);
        assert.deepEqual(await axeViolations(page), [], "connected page");

        await page.goto(`${base}/portal/l/no-such-place?lang=${lang.tag}`);
        assert.equal(await page.getAttribute("html", "lang"), lang.tag);
        assert.deepEqual(await axeViolations(page), [], "error page");
      } finally {
        await page.close();
      }
    });
  }

  it("at 200 % zoom on a phone (320 CSS pixels wide) nothing scrolls sideways, in a long and a right-to-left language", async () => {
    for (const tag of ["de", "ar", "pl"]) {
      const page = await browser.newPage({ viewport: { width: 320, height: 640 }, deviceScaleFactor: 2 });
      await page.goto(`${gatewayUrl("02:00:00:00:11:04")}&lang=${tag}`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, tag);
      await page.close();
    }
  });

  it("is usable by keyboard alone: Tab reaches the click-through form, Space ticks, Enter connects", async () => {
    const page = await browser.newPage();
    await page.goto(`${gatewayUrl("02:00:00:00:11:05")}&lang=es`);
    let focused = "";
    for (let i = 0; i < 80 && focused !== "ct-terms"; i++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.id ?? "");
    }
    assert.equal(focused, "ct-terms", "Tab reaches the click-through terms box");
    // Focus is visible: the outline of :focus-visible.
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle), "none");
    await page.keyboard.press("Space");
    assert.equal(await page.isChecked("#ct-terms"), true);
    // On past the unticked marketing box to the form's button.
    let onButton = false;
    for (let i = 0; i < 5 && !onButton; i++) {
      await page.keyboard.press("Tab");
      onButton = await page.evaluate(() => document.activeElement?.matches('form[action="/portal/login/clickthrough"] button') ?? false);
    }
    assert.ok(onButton, "Tab reaches the Connect button");
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/portal/login/clickthrough")), page.keyboard.press("Enter")]);
    assert.equal(response.status(), 303);
    await page.close();
  });

  it("runs no animation or transition with prefers-reduced-motion", async () => {
    const page = await browser.newPage({ reducedMotion: "reduce" });
    await page.goto(`${gatewayUrl("02:00:00:00:11:06")}&lang=fr`);
    assert.equal(await page.evaluate(() => document.getAnimations().length), 0);
    assert.equal(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches), true);
    await page.close();
  });

  it("inside iOS's and Android's assistants: the social login points to the browser, no window opens, the connected page stays", async () => {
    for (const ua of [IOS_CNA, ANDROID_CNA]) {
      const context = await browser.newContext({ userAgent: ua });
      const page = await context.newPage();
      let popups = 0;
      page.on("popup", () => popups++);
      await page.goto(`${gatewayUrl("02:00:00:00:11:07")}&lang=en`);
      assert.match(await page.locator("#social-h").locator("xpath=..").innerText(), /Continue in your browser/);
      assert.equal(await page.locator('button[formaction^="/portal/login/oauth/"]').count(), 0, "no provider button in the assistant");
      assert.equal(await page.locator('a[target], form[target]').count(), 0, "nothing opens a window");
      // The gateway's own logon address is not on this machine: answer for it, as CoovaChilli would.
      await page.route("http://10.1.0.1:3990/**", (route) => route.fulfill({ status: 204 }));
      // Click-through works with the assistant's own cookies, set and read within the sheet.
      await page.check("#ct-terms");
      const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/portal/login/clickthrough")), page.locator('form[action="/portal/login/clickthrough"] button').click()]);
      assert.equal(res.status(), 303);
      // Back from the gateway: the connected page says so and does not move on by itself.
      // In a page of its own: the first one's redirect to the gateway (not on this machine) may still be settling.
      const back = await context.newPage();
      await back.goto(gatewayUrl("02:00:00:00:11:07", "success"));
      assert.equal(await back.locator('meta[http-equiv="refresh"]').count(), 0);
      assert.match(await back.locator("[role=status]").innerText(), /You can close this page/);
      assert.equal(popups, 0);
      await context.close();
    }
    // Windows opens its default browser: the page is a browser's, with the provider's button.
    const context = await browser.newContext({ userAgent: WINDOWS_EDGE });
    const page = await context.newPage();
    await page.goto(gatewayUrl("02:00:00:00:11:08"));
    assert.equal(await page.locator('button[formaction="/portal/login/oauth/facebook"]').count(), 1);
    await context.close();
  });
});
