/**
 * Consent boxes and the voucher login in Debian's headless Chromium, as a guest's phone sends them:
 * the CoovaChilli redirect to the page, the browser's own check of the required terms box, the
 * unticked marketing box, the logon hand-off to a local gateway stand-in, and the voucher's
 * credential through our RADIUS server (asked by radclient, as the gateway would).
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { coovaPapDecode } from "../../src/gateways/coova/coova.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "../radius/radclient.js";
import { papRequest } from "../radius/radius-fixtures.js";
import { type World, coovaUrl, makeWorld, randomMac, setApAddress } from "./portal-world.js";
import { type StandIn, startGatewayStandIn } from "./stand-ins.js";
import { freeTcpPort } from "../helpers/ports.js";

const UAM_SECRET = "browser-consent-uam-secret";
const CHALLENGE = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5";
const ARTIFACTS = "test-artifacts";

for (const dialect of DIALECTS) {
  describe(`consent and vouchers in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let gateway: StandIn;
    let radius: RadiusListener;
    let w: World;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      gateway = await startGatewayStandIn();
      const port = await freeTcpPort();
      t = await createTestApp(dialect, {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORTAL_SECRET: "browser-consent-secret",
        COOVA_UAM_SECRET: UAM_SECRET,
        RADIUS_HOST: "127.0.0.1",
        RADIUS_AUTH_PORT: "0",
        RADIUS_ACCT_PORT: "0",
      });
      await t.app.listen({ host: "127.0.0.1", port });
      radius = await startRadius({ db: t.db, config: t.config, log: t.app.log });
      w = await makeWorld(t, {
        login_options: JSON.stringify({ custom: 1, voucher: 1 }),
        terms_required: "1",
        marketing_opt_in: "1",
        marketing_text: "Send me the weekly menu.",
      });
      await setApAddress(t, w.deviceId, "127.0.0.1");
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, session_time_limit: 7200, max_bandwidth_down: 500_000 });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await radius?.stop();
      await t?.close();
      await gateway?.close();
    });

    async function phonePage(mac: string): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const url = coovaUrl(w.url, { uamip: "127.0.0.1", uamport: gateway.port, challenge: CHALLENGE, called: w.apMac, mac, userurl: "http://example.org/" }, UAM_SECRET);
      assert.equal((await page.goto(url))?.status(), 200);
      return page;
    }

    const accessRequest = (logonUrl: string, mac: string, secret: string) => {
      const logon = new URL(logonUrl);
      const password = coovaPapDecode(logon.searchParams.get("password")!, CHALLENGE, UAM_SECRET);
      return radclient(radius.authPort, "auth", secret, papRequest(w.apMac, mac, logon.searchParams.get("username")!, password), 3);
    };

    it("will not connect without the terms; the marketing box starts unticked and is recorded only when ticked", async () => {
      const page = await phonePage(randomMac());
      const before = (await t.db.selectFrom("logins").select("id").execute()).length;
      await page.getByLabel("Your name").fill("Ann Example");
      await page.locator("#custom-email").fill("ann@example.com");
      assert.equal(await page.locator("#custom-marketing").isChecked(), false);
      assert.equal(await page.locator("#custom-terms").isChecked(), false);
      await page.locator("section[aria-labelledby=custom-h]").getByRole("button", { name: "Connect", exact: true }).click();
      // The browser's own check keeps the form: the terms box is required.
      assert.equal(await page.locator("#custom-terms").evaluate((el) => (el as HTMLInputElement).validity.valueMissing), true);
      assert.equal((await t.db.selectFrom("logins").select("id").execute()).length, before);
      await page.screenshot({ path: `${ARTIFACTS}/consent-${dialect}-form.png`, fullPage: true });

      await page.locator("#custom-terms").check();
      await page.getByLabel("Send me the weekly menu.").first().check();
      await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.locator("section[aria-labelledby=custom-h]").getByRole("button", { name: "Connect", exact: true }).click()]);
      const login = await t.db.selectFrom("logins").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
      assert.deepEqual([login.terms_accepted, login.marketing_opt_in], [1, 1]);
      assert.match(login.terms_version, /^[0-9a-f]{16}$/);
      const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", login.guest_id).executeTakeFirstOrThrow();
      assert.equal(guest.marketing_opt_in, 1);
      await page.context().close();
    });

    it("logs a guest in with a printed voucher code typed loosely, and RADIUS gives the voucher's time and rate", async () => {
      const created = await t.call("POST", "create-voucher-batch", { location_ids: String(w.locationId), count: 2, duration: 20, bandwidth_down: 125_000 });
      assert.equal(created.statusCode, 200, JSON.stringify(created.body));
      const code: string = created.body.codes[0];
      const secret = (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", w.deviceId).executeTakeFirstOrThrow()).radius_secret;

      const wrong = await phonePage(randomMac());
      await wrong.getByLabel("Voucher code").fill("ccccc-ccccc");
      await wrong.locator("#voucher-terms").check();
      await wrong.getByRole("button", { name: "Connect with voucher" }).click();
      await wrong.waitForSelector("#voucher-code-error");
      assert.equal(await wrong.textContent("#voucher-code-error"), "This voucher code is not valid. Please check the code and try again.");
      assert.equal(await wrong.getByLabel("Voucher code").inputValue(), "ccccc-ccccc", "the code typed stays in the field");
      await wrong.context().close();

      const mac = randomMac();
      const page = await phonePage(mac);
      await page.getByLabel("Voucher code").fill(` ${code.toLowerCase().replace("-", " ")} `);
      await page.locator("#voucher-terms").check();
      await page.screenshot({ path: `${ARTIFACTS}/voucher-${dialect}-form.png`, fullPage: true });
      await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.getByRole("button", { name: "Connect with voucher" }).click()]);
      const r = await accessRequest(page.url(), mac, secret);
      assert.equal(r.code, "Access-Accept", r.output);
      const timeout = Number(r.attributes["Session-Timeout"]);
      assert.ok(timeout <= 1200 && timeout > 1150, `Session-Timeout ${timeout}`);
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Down"], "1000000");
      await page.context().close();

      const list = await t.call("GET", "voucher-list", { code });
      assert.equal(list.body.data[0].status, "active");
      const login = await t.db.selectFrom("logins").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
      assert.deepEqual([login.login_type, login.terms_accepted, login.marketing_opt_in], ["Vuser", 1, 0]);
    });
  });
}
