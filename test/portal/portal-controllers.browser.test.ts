/**
 * UniFi (classic and UniFi OS) and Omada guests in Debian's headless Chromium: the AP sends the
 * browser to the portal as the vendor does, the guest logs in, the stand-in controller (HTTPS,
 * self-signed, pinned) records an authorisation with the guest's MAC and the location's limits, and
 * the browser lands where the campaign says. A controller that refuses gets the guest a page to
 * retry on; once the operator fixes the credentials, the next tap gets the guest in.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { type Server, createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { type ControllerStandIn, type TestCertificate, makeCertificate, startOmadaController, startUnifiController } from "./controller-stand-ins.js";
import { connectRefusedByController, controllerWorld, omadaUrl, unifiUrl } from "./controller-world.js";
import { countLogins, randomMac } from "./portal-world.js";
import { type StandIn, startGatewayStandIn } from "./stand-ins.js";

const ARTIFACTS = "test-artifacts";
const USER = { username: "portal", password: "Portal-Pass-1" };

/**
 * A venue's website as operators give it for redirect_url: its first address answers with a
 * redirect to another origin (http to https, a bare domain to www.), here 127.0.0.1 to localhost.
 */
async function startRedirectingSite(): Promise<{ start: string; landing: string; visits: string[]; close(): Promise<void> }> {
  const visits: string[] = [];
  let port = 0;
  const server: Server = createHttpServer((req, res) => {
    visits.push(`${req.headers.host}${req.url}`);
    if (req.url === "/welcome") {
      res.writeHead(301, { location: `http://localhost:${port}/home`, connection: "close" });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" });
    res.end("<!doctype html><title>Cafe Blau</title><h1>Cafe Blau</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return {
    start: `http://127.0.0.1:${port}/welcome`,
    landing: `http://localhost:${port}/home`,
    visits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const dialect of DIALECTS) {
  describe(`UniFi and Omada guests in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let cert: TestCertificate;
    let classic: ControllerStandIn & { accepted: any[] };
    let os: ControllerStandIn & { accepted: any[] };
    let omada: ControllerStandIn & { accepted: any[] };
    let welcome: StandIn;
    let base: string;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      cert = makeCertificate();
      [classic, os, omada, welcome] = await Promise.all([
        startUnifiController(cert, { flavour: "classic", ...USER, site: "default" }),
        startUnifiController(cert, { flavour: "os", ...USER, site: "default" }),
        startOmadaController(cert, { ...USER, controllerId: "5e1c0ffee0" }),
        startGatewayStandIn(),
      ]);
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base, PORTAL_SECRET: "browser-portal-secret", CONTROLLER_TIMEOUT_MS: "3000", CONTROLLER_ALLOW_PRIVATE: "true" });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await t?.close();
      await Promise.all([classic?.close(), os?.close(), omada?.close(), welcome?.close()]);
    });

    async function phonePage(): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      return context.newPage();
    }
    const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/controllers-${dialect}-${name}.png`, fullPage: true });
    const limits = { session_time_limit: 7200, max_bandwidth: 1_000_000, max_bandwidth_up: 250_000, daily_bandwidth_cap: 2_097_152_000 };

    it("UniFi classic: e-mail login, authorize-guest with the guest's MAC and limits, then the campaign's page", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint }, {
        redirect_url: `${welcome.url}/welcome`,
      });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...limits });
      const guest = randomMac();
      const page = await phonePage();
      const res = await page.goto(unifiUrl(base, { ap: w.apMac, client: guest, url: "http://captive.apple.com/hotspot-detect.html" }));
      assert.equal(res?.status(), 200);
      assert.equal(await page.textContent("h1"), "Welcome to Cafe Blau");
      await page.locator("#email-email").fill("uma@example.com");
      await shot(page, "unifi-page");
      await Promise.all([page.waitForURL(`${welcome.url}/welcome`), page.getByRole("button", { name: "Connect with e-mail" }).click()]);
      assert.deepEqual(classic.accepted.at(-1), {
        cmd: "authorize-guest",
        mac: guest.toLowerCase(),
        minutes: 120,
        up: 2000,
        down: 8000,
        bytes: 2000,
        ap_mac: w.apMac.toLowerCase(),
      });
      const [login] = await countLogins(t, w.locationId);
      assert.equal(login.login_type, "Muser");
      assert.equal(login.client_mac, guest);
      await page.context().close();
    });

    it("UniFi OS: click-through, then the connected page", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-pro", { type: "unifi", url: os.url, ...USER, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
      const guest = randomMac();
      const page = await phonePage();
      await page.goto(unifiUrl(base, { ap: w.apMac, client: guest }));
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
      await page.getByText("You are online").waitFor();
      assert.equal(os.accepted.at(-1).mac, guest.toLowerCase());
      assert.ok(os.calls.some((c) => c.path === "/api/auth/login"));
      await shot(page, "unifi-os-connected");
      await page.context().close();
    });

    it("Omada EAP: custom form, extPortal/auth with the guest's MAC and the session time in microseconds", async () => {
      const w = await controllerWorld(t, "tplink-eap650", { type: "omada", url: omada.url, ...USER, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...limits });
      const guest = randomMac();
      const page = await phonePage();
      await page.goto(omadaUrl(w.url, { client: guest, ap: w.apMac, ssid: "Cafe Guest", radio: "0" }));
      await page.getByLabel("Your name").fill("Olga Example");
      await page.locator("#custom-email").fill("olga@example.com");
      await page.locator("#custom-email").press("Enter");
      await page.getByText("You are online").waitFor();
      assert.deepEqual(omada.accepted.at(-1), {
        clientMac: guest.replace(/:/g, "-"),
        site: "5f2a9c1e8b7d4a0012345678",
        time: 7200 * 1_000_000,
        authType: 4,
        apMac: w.apMac.replace(/:/g, "-"),
        ssidName: "Cafe Guest",
        radioId: 0,
      });
      await page.context().close();
    });

    it("a redirect_url that itself redirects to another origin (http to https, www.): the guest still gets there, UniFi and Omada", async () => {
      const site = await startRedirectingSite();
      try {
        const u = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint }, {
          redirect_url: site.start,
        });
        const guest = randomMac();
        const page = await phonePage();
        await page.goto(unifiUrl(base, { ap: u.apMac, client: guest }));
        await page.getByLabel("I accept the terms of use").check();
        await Promise.all([page.waitForURL(site.landing), page.getByRole("button", { name: "Connect", exact: true }).last().click()]);
        assert.equal(await page.textContent("h1"), "Cafe Blau");
        assert.equal(classic.accepted.at(-1).mac, guest.toLowerCase());
        await page.context().close();

        const o = await controllerWorld(t, "tplink-eap225", { type: "omada", url: omada.url, ...USER, tls_fingerprint: cert.fingerprint }, {
          redirect_url: site.start,
        });
        const other = randomMac();
        const page2 = await phonePage();
        await page2.goto(omadaUrl(o.url, { client: other, ap: o.apMac }));
        await page2.getByLabel("I accept the terms of use").check();
        await Promise.all([page2.waitForURL(site.landing), page2.getByRole("button", { name: "Connect", exact: true }).last().click()]);
        assert.equal(omada.accepted.at(-1).clientMac, other.replace(/:/g, "-"));
        assert.deepEqual(site.visits.filter((v) => v.endsWith("/home")).length, 2);
        await page2.context().close();
      } finally {
        await site.close();
      }
    });

    it("a controller that refuses: the form again with a clear notice; after the operator fixes it, one more tap gets the guest in", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, username: USER.username, password: "outdated", tls_fingerprint: cert.fingerprint }, {
        redirect_url: "",
      });
      const guest = randomMac();
      const page = await phonePage();
      await page.goto(unifiUrl(base, { ap: w.apMac, client: guest }));
      await connectRefusedByController(page);
      assert.equal(await page.getByRole("button", { name: "Connect", exact: true }).count() > 0, true, "the same form, to retry in one tap");
      await shot(page, "controller-refused");
      assert.equal((await countLogins(t, w.locationId)).length, 0);
      const fixed = await t.call("POST", "create-or-update-controller", {
        controller_id: w.controllerId, name: "Fixed", type: "unifi", url: classic.url, password: USER.password,
      });
      assert.equal(fixed.statusCode, 200, JSON.stringify(fixed.body));
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
      await page.getByText("You are online").waitFor();
      assert.equal(classic.accepted.at(-1).mac, guest.toLowerCase());
      assert.equal((await countLogins(t, w.locationId)).length, 1);
      await page.context().close();
    });
  });
}
