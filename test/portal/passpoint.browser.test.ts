/**
 * Chromium as an iPhone and as an Android phone: a click-through login through a CoovaChilli
 * redirect, the gateway's answer (a stand-in that does what CoovaChilli's logon does), then the
 * connected page's "Set up automatic connection" link, and on the Passpoint page the device's own
 * profile first. SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { IPHONE_UA, type World, coovaUrl, makeWorld, randomMac, setApAddress } from "./portal-world.js";

const ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";

for (const dialect of DIALECTS) {
  describe(`passpoint link on the connected page, in Chromium (${dialect})`, () => {
    let t: TestApp;
    let w: World;
    let base: string;
    let browser: Browser;
    let gateway: Server;
    let gatewayPort: number;
    let successUrl = "";
    before(async () => {
      // A CoovaChilli stand-in: its logon answers with the redirect back to the portal it sends on
      // success (res=success; the UAM protocol, https://coova.github.io/CoovaChilli/).
      gateway = createServer((req, res) => {
        res.writeHead(req.url?.startsWith("/logon") ? 302 : 404, { location: successUrl });
        res.end();
      });
      await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
      gatewayPort = (gateway.address() as AddressInfo).port;
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base, PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000" });
      await t.app.listen({ host: "127.0.0.1", port });
      w = await makeWorld(t);
      const res = await t.call("POST", "create-or-update-passpoint", { location_ids: `${w.locationId}`, ssid: "Chain Secure", domain: "wifi.chain.example", realm: "chain.example" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      await setApAddress(t, w.deviceId, "127.0.0.1");
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await new Promise((resolve) => gateway?.close(resolve));
      await t?.close();
    });

    for (const [device, ua, first] of [
      ["iPhone", IPHONE_UA, "apple"],
      ["Android", ANDROID_UA, "android"],
    ] as const) {
      it(`${device}: finds the link after the login and its own profile first`, async () => {
        const context = await browser.newContext({ userAgent: ua, isMobile: true, viewport: { width: 390, height: 844 } });
        try {
          const mac = randomMac();
          const page = await context.newPage();
          successUrl = `${base}${coovaUrl(w.path, { called: w.apMac, mac, res: "success", challenge: "" })}`;
          await page.goto(`${base}${coovaUrl(w.path, { uamip: "127.0.0.1", uamport: gatewayPort, called: w.apMac, mac })}`);
          await page.getByLabel("I accept the terms of use").last().check();
          await Promise.all([page.waitForURL(/res=success/, { timeout: 20_000 }), page.getByRole("button", { name: "Connect", exact: true }).last().click()]);
          const link = page.getByRole("link", { name: "Set up automatic connection" });
          await link.waitFor({ timeout: 15_000 });
          assert.equal(await link.getAttribute("href"), `/portal/passpoint/${w.locationId}`);
          await Promise.all([page.waitForURL(`**/portal/passpoint/${w.locationId}`), link.click()]);
          const install = page.getByRole("link", { name: "Install the profile" });
          assert.equal(await install.count(), 3);
          assert.equal(await install.first().getAttribute("data-platform"), first);
        } finally {
          await context.close();
        }
      });
    }
  });
}
