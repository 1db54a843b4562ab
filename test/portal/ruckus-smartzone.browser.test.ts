/**
 * RUCKUS SmartZone / RUCKUS One guests, end to end: a stand-in SmartZone (smartzone-stand-in.ts)
 * redirects a Chromium guest to the location's page with its MAC and address encrypted; the portal
 * has the location's controller decrypt the MAC, the guest logs in, and the service hands the
 * one-time credential to the controller's northbound portal interface, which asks our RADIUS server
 * with radclient as SmartZone does; the decrypted uip tells the RFC 8908 API the device is in. Two APs of one zone share the zone's RADIUS secret (set with
 * rotate-device-secret). Also: the pending (202) answer, a wrong interface password, a redirect
 * naming another nbiIP (never called), a location without a controller, and hostile parameters.
 */
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { type Server, createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { launchChromium } from "../helpers/browser.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { radclient } from "../radius/radclient.js";
import { type TestCertificate, makeCertificate } from "./controller-stand-ins.js";
import { connectRefusedByController, controllerWorld } from "./controller-world.js";
import { PortalClient, countLogins, randomMac, stateOf } from "./portal-world.js";
import { type SmartZoneStandIn, startSmartZone } from "./smartzone-stand-in.js";

const NBI = { username: "api", password: "nbi-Secret-2026" };
const ZONE_SECRET = "zone-Shared-Secret-42";
const OPTIONS = { session_time_limit: 3600, max_bandwidth_up: 256_000, max_bandwidth: 1_250_000, daily_bandwidth_cap: 0 };
const EXPECTED = { "Session-Timeout": "3600", "Acct-Interim-Interval": "300", "WISPr-Bandwidth-Max-Up": "2048000", "WISPr-Bandwidth-Max-Down": "10000000" };

const withoutAuthenticator = (attributes: Record<string, string>) => {
  const { "Message-Authenticator": ma, ...rest } = attributes;
  assert.match(ma ?? "", /^0x[0-9a-f]{32}$/, "Message-Authenticator in every Access-Accept");
  return rest;
};

for (const dialect of DIALECTS) {
  describe(`RUCKUS SmartZone and RUCKUS One (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let radius: RadiusListener;
    let cert: TestCertificate;
    let sz: SmartZoneStandIn;
    let trap: Server;
    let trapCalls = 0;
    /** The trap's loopback address: random, so test runs side by side do not share port 9443. */
    let trapIp = "";
    let landing: Server;
    let landingUrl = "";

    before(async () => {
      cert = makeCertificate();
      landing = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "text/html", connection: "close" }).end("<!doctype html><title>Landed</title><h1>Landed</h1>"));
      await new Promise<void>((resolve) => landing.listen(0, "127.0.0.1", resolve));
      landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/welcome`;
      // What a redirect's forged nbiIP would point at: it must never be called.
      trap = createHttpsServer({ key: cert.key, cert: cert.cert }, (_req, res) => {
        trapCalls++;
        res.writeHead(500).end();
      });
      // The NBI port is SmartZone's own (9443); another run on the machine may hold it on one
      // loopback address, so a few are tried (a bind error ends the wait, never hangs it).
      for (let tries = 0; !trapIp; tries++) {
        const ip = `127.${1 + randomInt(254)}.${1 + randomInt(254)}.${1 + randomInt(254)}`;
        const bound = await new Promise<boolean>((resolve) => {
          trap.once("error", () => resolve(false));
          trap.listen(9443, ip, () => resolve(true));
        });
        if (bound) trapIp = ip;
        else assert.ok(tries < 20, "no loopback address free for port 9443");
      }
      const port = await freeTcpPort();
      t = await createTestApp(dialect, {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORTAL_SECRET: "smartzone-portal-secret",
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
        CONTROLLER_TIMEOUT_MS: "4000",
        CONTROLLER_ALLOW_PRIVATE: "true",
        RADIUS_HOST: "127.0.0.1",
        RADIUS_AUTH_PORT: "0",
        RADIUS_ACCT_PORT: "0",
      });
      await t.app.listen({ host: "127.0.0.1", port });
      radius = await startRadius({ db: t.db, config: t.config, log: t.app.log });
      sz = await startSmartZone(cert, { ...NBI, radius: { port: radius.authPort, secret: ZONE_SECRET }, zoneName: "Cafe Blau" });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await radius?.stop();
      await sz?.close();
      await new Promise<void>((resolve) => (trap ? trap.close(() => resolve()) : resolve()));
      await new Promise<void>((resolve) => (landing ? landing.close(() => resolve()) : resolve()));
      await t?.close();
    });

    async function phonePage(): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      return context.newPage();
    }

    /** A location with a RUCKUS AP, the zone's controller, and the zone's RADIUS secret on the AP. */
    async function zoneWorld(controller: { password: string } | null, campaign: Record<string, unknown> = { redirect_url: landingUrl }) {
      const w = await controllerWorld(
        t,
        "ruckus-r550",
        controller && { type: "ruckus", url: sz.url, username: NBI.username, password: controller.password, tls_fingerprint: cert.fingerprint },
        campaign,
      );
      const set = await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...OPTIONS });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      const secret = await t.call("POST", "rotate-device-secret", { device_id: w.deviceId, radius_secret: ZONE_SECRET });
      assert.equal(secret.statusCode, 200, JSON.stringify(secret.body));
      assert.equal(secret.body.radius_secret, ZONE_SECRET);
      return w;
    }

    it("decrypts the guest's MAC, logs the guest on through the northbound interface, RADIUS accepts; one-time; then by MAC", async () => {
      const w = await zoneWorld(NBI);
      const client = { mac: randomMac(), ip: "10.1.0.23" };
      const page = await phonePage();
      const from = sz.calls.length;
      const redirect = sz.redirect(w.url, { mac: w.apMac, ssid: "Cafe Guest" }, client);
      const res = await page.goto(redirect);
      assert.equal(res?.status(), 200);
      assert.equal(await page.textContent("h1"), "Welcome to Cafe Blau");
      const decrypt = sz.calls.slice(from).find((c) => c.RequestType === "Decrypt");
      assert.ok(decrypt, "the page asked the controller to decrypt client_mac");
      assert.equal(decrypt.Data, new URL(redirect).searchParams.get("client_mac"));
      assert.equal(decrypt.RequestUserName, NBI.username);

      await page.locator("#email-email").fill("rosa@example.com");
      await Promise.all([page.waitForURL(`${landingUrl}**`), page.getByRole("button", { name: "Connect with e-mail" }).click()]);
      assert.equal(await page.textContent("h1"), "Landed");
      await page.context().close();

      const loginCall = [...sz.calls].reverse().find((c) => c.RequestType === "Login");
      assert.equal(sz.calls.at(-1).RequestType, "Decrypt", "then uip decrypted");
      assert.equal(sz.calls.at(-1).Data, new URL(redirect).searchParams.get("uip"));
      assert.equal(loginCall.RequestCategory, "UserOnlineControl");
      assert.equal(loginCall.RequestType, "Login");
      assert.equal(loginCall["UE-MAC"], new URL(redirect).searchParams.get("client_mac"), "UE-MAC handed back as the redirect carried it");
      assert.equal(loginCall["UE-IP"], new URL(redirect).searchParams.get("uip"));
      assert.equal(loginCall["UE-Proxy"], "0");
      assert.match(loginCall["UE-Username"], /^gw-/);
      const exchange = sz.logins.at(-1)!;
      assert.equal(exchange.result.code, "Access-Accept", exchange.result.output);
      assert.deepEqual(withoutAuthenticator(exchange.result.attributes), EXPECTED);
      const [login] = await countLogins(t, w.locationId);
      assert.equal(login.client_mac, client.mac, "the login is recorded with the decrypted MAC");
      assert.equal(login.login_type, "Muser");
      // The decrypted uip: the RFC 8908 API of the location says this device is in, with its time left.
      const captive = await t.app.inject({ method: "GET", url: `${new URL(w.url).pathname}/captive-portal-api`, remoteAddress: client.ip });
      assert.equal(captive.json().captive, false, captive.body);
      assert.ok(captive.json()["seconds-remaining"] > 3500, captive.body);
      const neighbour = await t.app.inject({ method: "GET", url: `${new URL(w.url).pathname}/captive-portal-api`, remoteAddress: "10.1.0.99" });
      assert.equal(neighbour.json().captive, true);

      // The credential was one-time.
      const again = await radclient(radius.authPort, "auth", ZONE_SECRET, exchange.request);
      assert.equal(again.code, "Access-Reject", again.output);
      // The returning guest by MAC authentication bypass (SmartZone sends the MAC as user name and password).
      const user = client.mac.replace(/:/g, "").toLowerCase();
      const byMac = await radclient(radius.authPort, "auth", ZONE_SECRET, [
        `User-Name = "${user}"`,
        `User-Password = "${user}"`,
        ...exchange.request.filter((l) => !/^User-(Name|Password) /.test(l)),
      ]);
      assert.equal(byMac.code, "Access-Accept", byMac.output);
      assert.deepEqual(withoutAuthenticator(byMac.attributes), EXPECTED);
    });

    it("a second AP of the zone with the same secret, and a login the controller answers 202 (pending) then 101", async () => {
      const w = await zoneWorld(NBI, { redirect_url: "" });
      const client = { mac: randomMac(), ip: "10.1.0.24" };
      const page = await phonePage();
      await page.goto(sz.redirect(w.url, { mac: w.apMac, ssid: "Cafe Guest" }, client));
      sz.pendNextLogin();
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
      await page.getByText("You are online").waitFor();
      await page.context().close();
      const types = sz.calls.slice(-2).map((c) => c.RequestType);
      assert.ok(types.includes("Status"), `status queried after the 202: ${types.join(", ")}`);
      assert.equal(sz.logins.at(-1)!.result.code, "Access-Accept");
      assert.equal((await countLogins(t, w.locationId))[0].client_mac, client.mac);
    });

    it("a wrong interface password: the page still shows, the login gets the retry page; fixed, one more tap gets the guest in", async () => {
      const w = await zoneWorld({ password: "outdated-password" }, { redirect_url: "" });
      const client = { mac: randomMac(), ip: "10.1.0.25" };
      const page = await phonePage();
      assert.equal((await page.goto(sz.redirect(w.url, { mac: w.apMac, ssid: "Cafe Guest" }, client)))?.status(), 200);
      await connectRefusedByController(page);
      const fixed = await t.call("POST", "create-or-update-controller", { controller_id: w.controllerId, name: "Zone", type: "ruckus", url: sz.url, password: NBI.password });
      assert.equal(fixed.statusCode, 200, JSON.stringify(fixed.body));
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
      await page.getByText("You are online").waitFor();
      assert.equal(sz.logins.at(-1)!.result.code, "Access-Accept");
      await page.context().close();
    });

    it("calls only the location's controller, never the redirect's nbiIP; without a controller the login is refused and nothing recorded", async () => {
      const w = await zoneWorld(NBI, { redirect_url: "" });
      const client = { mac: randomMac(), ip: "10.1.0.26" };
      const page = await phonePage();
      await page.goto(sz.redirect(w.url, { mac: w.apMac, ssid: "Cafe Guest" }, client, trapIp));
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
      await page.getByText("You are online").waitFor();
      await page.context().close();
      assert.equal(trapCalls, 0, "the forged nbiIP was not called");
      assert.equal((await countLogins(t, w.locationId))[0].client_mac, client.mac);

      const bare = await zoneWorld(null, { redirect_url: "" });
      const c = new PortalClient(t.app);
      const shown = await c.get(sz.redirect(new URL(bare.url).pathname, { mac: bare.apMac, ssid: "Cafe Guest" }, { mac: randomMac(), ip: "10.1.0.27" }));
      assert.equal(shown.statusCode, 200, "the page shows; the MAC stays unknown");
      const refused = await c.post("/portal/login/clickthrough", { state: stateOf(shown.body), accept_terms: "1" });
      assert.equal(refused.statusCode, 502, refused.body.slice(0, 300));
      assert.match(refused.body, /not fully set up/);
      assert.equal((await countLogins(t, bare.locationId)).length, 0);
      assert.equal(trapCalls, 0);
    });

    it("refuses broken parameters and an AP of another family with the error page", async () => {
      const w = await zoneWorld(NBI);
      const path = new URL(w.url).pathname;
      const c = new PortalClient(t.app);
      const base = { nbiIP: "127.0.0.1", mac: w.apMac.toLowerCase(), client_mac: sz.encrypt(randomMac()), uip: sz.encrypt("10.1.0.28"), proxy: "0", ssid: "Cafe Guest" };
      const url = (p: Record<string, string>) => `${path}?${new URLSearchParams({ ...base, ...p }).toString()}`;
      assert.equal((await c.get(url({}))).statusCode, 200);
      assert.equal((await c.get(url({ client_mac: randomMac().replace(/:/g, "") }))).statusCode, 200, "a plain MAC without delimiters");
      const broken: Record<string, string>[] = [
        { nbiIP: "" },
        { nbiIP: "sz.example/../x" },
        { mac: "" },
        { mac: "not-a-mac" },
        { client_mac: "" },
        { client_mac: "ENCzz" },
        { client_mac: "<script>" },
        { uip: "ENC12" },
        { uip: "not-an-ip" },
        { proxy: "2" },
      ];
      for (const bad of broken) {
        const res = await c.get(url(bad));
        assert.equal(res.statusCode, 400, JSON.stringify(bad));
        assert.doesNotMatch(res.body, /Welcome to Cafe Blau/);
      }
      // A registered AP of another family does not get in through a RUCKUS redirect.
      const other = randomMac();
      const dev = await t.call("POST", "create-device", { device_name: "Coova", mac_address: other, model_id: "coovachilli" });
      await t.call("POST", "device-assign-location", { location_id: w.locationId, device_id: dev.body.device_id });
      const res = await c.get(url({ mac: other.toLowerCase() }));
      assert.notEqual(res.statusCode, 200);
    });
  });
}
