/**
 * The gateways that post a guest's credentials to themselves and ask our RADIUS server, end to end
 * in Debian's Chromium: for each family a stand-in gateway (radius-gateway-stand-in.ts) sends the
 * guest to the location's page with its vendor's parameters, the guest clicks through, the portal's
 * hand-off page posts the one-time credentials to the gateway's login URL, and the gateway asks
 * with radclient as that vendor does (its NAS attributes, PAP or CHAP). The Access-Accept carries
 * the family's attributes for the location's options; the same guest is then let in by MAC.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Server, createServer as createHttpServer } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { launchChromium } from "../helpers/browser.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { radclient } from "../radius/radclient.js";
import { type World, makeWorld, randomMac, setApAddress } from "./portal-world.js";
import { type GatewayClient, type GatewayFamilySpec, type RadiusGateway, startRadiusGateway } from "./radius-gateway-stand-in.js";

/** 3600 s; 256,000 B/s up (2,048 kbit/s), 1,250,000 B/s down (10 Mbit/s); a cap of 6e9 bytes (above 4 GiB). */
const OPTIONS = { session_time_limit: 3600, max_bandwidth_up: 256_000, max_bandwidth: 1_250_000, daily_bandwidth_cap: 6_000_000_000 };
const CAP_LOW = String(6_000_000_000 % 2 ** 32);
const WISPR = { "WISPr-Bandwidth-Max-Up": "2048000", "WISPr-Bandwidth-Max-Down": "10000000" };
const COMMON = { "Session-Timeout": "3600", "Acct-Interim-Interval": "300" };
const EXPECTED: Record<string, Record<string, string>> = {
  mikrotik: { ...COMMON, "Mikrotik-Rate-Limit": "2048k/10M", "Mikrotik-Total-Limit": CAP_LOW, "Mikrotik-Total-Limit-Gigawords": "1" },
  wispr: { ...COMMON, ...WISPR },
  cambium: { ...COMMON, ...WISPR, "Cambium-Traffic-Quota-Limit-Total": CAP_LOW, "Cambium-Traffic-Quota-Limit-Total-Gigwords": "1" },
};

const dashed = (m: string) => m.replace(/:/g, "-").toUpperCase();
const plain = (m: string) => m.replace(/:/g, "").toLowerCase();
const octal = (b: Buffer) => [...b].map((x) => `\\${x.toString(8).padStart(3, "0")}`).join("");

interface FamilyCase {
  title: string;
  model: string;
  dialect: keyof typeof EXPECTED;
  /** The gateway's behaviour, given the world, the registered AP MAC and the API's answers it needs. */
  spec(w: World, apMac: string, t: TestApp, deviceId: number): Promise<GatewayFamilySpec>;
  /** The NAS attributes of this vendor's Access-Request (besides User-Name and the password). */
  nas(apMac: string, client: GatewayClient): string[];
  /** The User-Name (and password) of this vendor's MAC authentication. */
  macUser(client: string): string;
  /** Where the gateway listens: its vendor's fixed port on a loopback address of its own, or any port on 127.0.0.1. */
  listen?: { port: number; tls?: boolean };
  /** The device's registered address (wan_ip), when the hand-off target is only allowed through it. */
  wanIp?: string;
}

/** A throwaway certificate for the https gateways, made with the openssl command line. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "gw-cert-"));
  try {
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=securelogin.arubanetworks.com"], { stdio: "ignore" });
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A loopback address of the test's own, so that fixed vendor ports do not collide with other tests. */
function loopback(): string {
  const b = randomBytes(3);
  return `127.${b[0]}.${b[1]}.${(b[2] % 250) + 2}`;
}

/** Where guests land after the gateway let them in (another origin: the campaign's redirect_url), set in before(). */
let landingUrl = "";

const portalUrl = (w: World, params: Record<string, string>) => `${w.url}?${new URLSearchParams(params).toString()}`;

const merakiSignOn: FamilyCase = {
  title: "Meraki sign-on splash",
  model: "meraki-mr46",
  dialect: "wispr",
  // The stand-in plays Meraki's cloud on loopback, allowed as the AP's registered address.
  wanIp: "127.0.0.1",
  nas: (apMac, client) => [
    `Called-Station-Id = "${dashed(apMac)}:Guest WiFi"`,
    `Calling-Station-Id = "${dashed(client.mac)}"`,
    'NAS-Identifier = "Meraki Cloud Controller"',
    "NAS-Port-Type = Wireless-802.11",
    "Service-Type = Login-User",
    `Framed-IP-Address = ${client.ip}`,
    'Meraki-Ap-Name = "Lobby MR46"',
  ],
  macUser: dashed,
  async spec(w, apMac) {
    return {
      loginPath: "/splash/login",
      start: (client, self) => ({
        redirect: portalUrl(w, {
          login_url: `${self}/splash/login?mauth=MMLdbpwzRuaC7kgxyz`,
          continue_url: "http://example.org/",
          ap_mac: apMac.toLowerCase(),
          ap_name: "Lobby MR46",
          ap_tags: " guest lobby ",
          client_mac: client.mac.toLowerCase(),
          client_ip: client.ip,
        }),
      }),
      landing: (form) => form.get("success_url") ?? "",
      accessRequest: (form, client) => [`User-Name = "${form.get("username")}"`, `User-Password = "${form.get("password")}"`, ...merakiSignOn.nas(apMac, client)],
    };
  },
};

const aruba: FamilyCase = {
  title: "Aruba controller",
  model: "aruba-ap-505",
  dialect: "wispr",
  listen: { port: 443, tls: true },
  nas: (apMac, client) => [
    `Called-Station-Id = "${plain(apMac)}"`,
    `Calling-Station-Id = "${plain(client.mac)}"`,
    'NAS-Identifier = "mc-lobby"',
    "NAS-Port-Type = Wireless-802.11",
    "Service-Type = Login-User",
    `Framed-IP-Address = ${client.ip}`,
    'Aruba-Essid-Name = "Guest"',
    'Aruba-Location-Id = "ap505-lobby"',
  ],
  macUser: plain,
  async spec(w, apMac) {
    return {
      loginPath: "/cgi-bin/login",
      landing: (form) => form.get("url") ?? "",
      start: (client, self) => ({
        redirect: portalUrl(w, {
          cmd: "login",
          mac: client.mac.toLowerCase(),
          ip: client.ip,
          essid: "Guest",
          apname: "ap505-lobby",
          apgroup: "default",
          apmac: apMac.toLowerCase(),
          url: "http://example.org/",
          switchip: new URL(self).hostname,
        }),
      }),
      accessRequest: (form, client) => {
        assert.equal(form.get("cmd"), "authenticate");
        return [`User-Name = "${form.get("user")}"`, `User-Password = "${form.get("password")}"`, ...aruba.nas(apMac, client)];
      },
    };
  },
};

const ruckus: FamilyCase = {
  title: "RUCKUS ZoneDirector",
  model: "ruckus-r550",
  dialect: "wispr",
  listen: { port: 9997 },
  nas: (apMac, client) => [
    `Called-Station-Id = "${dashed(apMac)}:Guest"`,
    `Calling-Station-Id = "${dashed(client.mac)}"`,
    'NAS-Identifier = "ZoneDirector"',
    "NAS-Port-Type = Wireless-802.11",
    `Framed-IP-Address = ${client.ip}`,
    'Ruckus-SSID = "Guest"',
  ],
  macUser: plain,
  async spec(w, apMac) {
    return {
      loginPath: "/login",
      landing: (form) => form.get("url") ?? "",
      start: (client, self) => ({
        redirect: portalUrl(w, {
          sip: new URL(self).hostname,
          mac: apMac.toLowerCase(),
          client_mac: client.mac.toLowerCase(),
          uip: client.ip,
          ssid: "Guest",
          url: "http://example.org/",
        }),
      }),
      // The ZoneDirector got the password in clear and asks with CHAP (radclient hashes it).
      accessRequest: (form, client) => {
        assert.equal(form.get("ip"), client.ip);
        return [`User-Name = "${form.get("username")}"`, `CHAP-Password = "${form.get("password")}"`, ...ruckus.nas(apMac, client)];
      },
    };
  },
};

const cambium: FamilyCase = {
  title: "Cambium cnPilot",
  model: "cambium-xv2-2",
  dialect: "cambium",
  listen: { port: 880 },
  nas: (apMac, client) => [
    `Called-Station-Id = "${dashed(apMac)}:Guest"`,
    `Calling-Station-Id = "${dashed(client.mac)}"`,
    'NAS-Identifier = "XV2-2-lobby"',
    "NAS-Port-Type = Wireless-802.11",
    "Service-Type = Login-User",
    `Framed-IP-Address = ${client.ip}`,
  ],
  macUser: dashed,
  async spec(w, apMac) {
    return {
      loginPath: "/cgi-bin/hotspot_login.cgi",
      landing: (_form, query) => query.get("ga_orig_url") ?? "",
      start: (client, self) => ({
        redirect: portalUrl(w, {
          ga_ssid: "Guest",
          ga_ap_mac: dashed(apMac),
          ga_nas_id: "XV2-2-lobby",
          ga_srvr: new URL(self).hostname,
          ga_cmac: dashed(client.mac),
          ga_cip: client.ip,
          ga_Qv: "eUROAh0G+AxwfHQ/MeFgUEFA==",
          ga_orig_url: landingUrl,
        }),
      }),
      accessRequest: (form, client, query) => {
        assert.equal(query.get("ga_Qv"), "eUROAh0G+AxwfHQ/MeFgUEFA==", "the ga_* values come back in the query");
        assert.equal(query.get("ga_cmac"), dashed(client.mac));
        for (const name of ["ga_ssid", "ga_ap_mac", "ga_nas_id", "ga_srvr", "ga_cip", "ga_orig_url"]) assert.ok(query.has(name), name);
        return [`User-Name = "${form.get("ga_user")}"`, `User-Password = "${form.get("ga_pass")}"`, ...cambium.nas(apMac, client)];
      },
    };
  },
};

function mikrotik(chap: boolean): FamilyCase {
  // An id below 32: radclient sends a 17-octet CHAP-Password as given only when one octet is
  // non-printable (otherwise it takes it for a cleartext password and hashes it itself).
  const chapId = Buffer.from([0x07]);
  const challenge = randomBytes(16);
  const nas = (apMac: string, client: GatewayClient) => [
    'Called-Station-Id = "hotspot1"',
    `NAS-Identifier = "${apMac}"`,
    `Calling-Station-Id = "${client.mac}"`,
    "NAS-Port-Type = Wireless-802.11",
    'NAS-Port-Id = "bridge-guest"',
    "Service-Type = Login-User",
    `Framed-IP-Address = ${client.ip}`,
    `Mikrotik-Host-IP = ${client.ip}`,
  ];
  return {
    title: `MikroTik HotSpot (${chap ? "CHAP" : "PAP"})`,
    model: "mikrotik-hap-ac2",
    dialect: "mikrotik",
    nas,
    macUser: (m) => m.toUpperCase(),
    async spec(_w, apMac, t, deviceId) {
      const file = await t.call("GET", "device-mikrotik-login-html", { device_id: deviceId });
      assert.equal(file.statusCode, 200, String(file.body));
      assert.match(String(file.headers["content-type"]), /^text\/html/);
      assert.match(String(file.headers["content-disposition"]), /filename="login.html"/);
      const loginHtml = String(file.body);
      assert.ok(loginHtml.includes(`value="${apMac}"`) && loginHtml.includes("$(link-login-only)"), loginHtml);
      return {
        loginPath: "/login",
        // RouterOS fills in the variables of the uploaded login.html and serves it.
        start: (client, self) => ({
          html: loginHtml.replace(/\$\(([a-z-]+)\)/g, (_all, name: string) => {
            const values: Record<string, string> = {
              "link-login-only": `${self}/login`,
              "link-orig-esc": encodeURIComponent("http://example.org/news"),
              mac: client.mac,
              ip: client.ip,
              "chap-id": chap ? octal(chapId) : "",
              "chap-challenge": chap ? octal(challenge) : "",
              error: "",
            };
            return values[name] ?? "";
          }),
        }),
        landing: (form) => form.get("dst") ?? "",
        accessRequest: (form, client) => [
          `User-Name = "${form.get("username")}"`,
          ...(chap
            ? [`CHAP-Password = 0x${chapId.toString("hex")}${form.get("password")}`, `CHAP-Challenge = 0x${challenge.toString("hex")}`]
            : [`User-Password = "${form.get("password")}"`]),
          ...nas(apMac, client),
        ],
      };
    },
  };
}

const FAMILIES: FamilyCase[] = [mikrotik(true), mikrotik(false), merakiSignOn, aruba, ruckus, cambium];

for (const dialect of DIALECTS) {
  describe(`RADIUS gateways in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let radius: RadiusListener;
    let tls: { key: string; cert: string };
    const gateways: RadiusGateway[] = [];
    let landing: Server;

    before(async () => {
      landing = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "text/html", connection: "close" }).end("<!doctype html><title>Landed</title><h1>Landed</h1>"));
      await new Promise<void>((resolve) => landing.listen(0, "127.0.0.1", resolve));
      landingUrl = `http://127.0.0.1:${(landing.address() as { port: number }).port}/welcome`;
      tls = selfSignedCertificate();
      const port = await freeTcpPort();
      t = await createTestApp(dialect, {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORTAL_SECRET: "gateways-portal-secret",
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
        RADIUS_HOST: "127.0.0.1",
        RADIUS_AUTH_PORT: "0",
        RADIUS_ACCT_PORT: "0",
      });
      await t.app.listen({ host: "127.0.0.1", port });
      radius = await startRadius({ db: t.db, config: t.config, log: t.app.log });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await radius?.stop();
      await Promise.all(gateways.map((g) => g.close()));
      await new Promise<void>((resolve) => landing?.close(() => resolve()));
      await t?.close();
    });

    async function phonePage(): Promise<Page> {
      // Aruba's login URL is https with the controller's own (here self-signed) certificate.
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, ignoreHTTPSErrors: true });
      return context.newPage();
    }

    const replyAttributes = (attributes: Record<string, string>) => {
      const { "Message-Authenticator": ma, ...rest } = attributes;
      assert.match(ma ?? "", /^0x[0-9a-f]{32}$/, "Message-Authenticator in every Access-Accept");
      return rest;
    };

    for (const family of FAMILIES) {
      it(`${family.title}: the gateway sends the guest, receives the login, RADIUS accepts with its attributes; then by MAC`, async () => {
        const w = await makeWorld(t, { redirect_url: landingUrl });
        const set = await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...OPTIONS });
        assert.equal(set.statusCode, 200, JSON.stringify(set.body));
        const apMac = randomMac();
        const dev = await t.call("POST", "create-device", { device_name: family.title, mac_address: apMac, model_id: family.model });
        assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
        assert.equal((await t.call("POST", "device-assign-location", { location_id: w.locationId, device_id: dev.body.device_id })).statusCode, 200);
        const secret = dev.body.radius_secret as string;
        if (family.wanIp) await setApAddress(t, dev.body.device_id, family.wanIp);
        const spec = await family.spec(w, apMac, t, dev.body.device_id);
        const at = family.listen ? { host: loopback(), port: family.listen.port, tls: family.listen.tls ? tls : undefined } : undefined;
        const gateway = await startRadiusGateway(spec, { port: radius.authPort, secret }, at);
        gateways.push(gateway);

        const client: GatewayClient = { mac: randomMac(), ip: "10.5.50.20" };
        const page = await phonePage();
        await page.goto(gateway.startUrl(client));
        await page.waitForURL(`${w.url}?**`);
        assert.equal(await page.textContent("h1"), "Welcome to Cafe Blau");
        await page.getByLabel("I accept the terms of use").check();
        // Posted to the gateway, which lets the guest in and redirects to the campaign's redirect_url
        // (a redirect the hand-off page's form-action must allow, or Chromium blocks the post).
        await Promise.all([page.waitForURL(`${landingUrl}**`), page.getByRole("button", { name: "Connect", exact: true }).last().click()]);
        assert.equal(await page.textContent("h1"), "Landed", JSON.stringify(gateway.logins.at(-1)?.radius.output));
        const login = gateway.logins.at(-1)!;
        assert.equal(login.radius.code, "Access-Accept", login.radius.output);
        assert.deepEqual(replyAttributes(login.radius.attributes), EXPECTED[family.dialect]);
        await page.context().close();

        // The credential was one-time: the same request again is rejected.
        const again = await radclient(radius.authPort, "auth", secret, [...spec.accessRequest(login.form, client, login.query), "Message-Authenticator = 0x00"]);
        assert.equal(again.code, "Access-Reject", again.output);

        // The returning guest, by MAC, as this gateway words it.
        const user = family.macUser(client.mac);
        const byMac = await radclient(radius.authPort, "auth", secret, [`User-Name = "${user}"`, `User-Password = "${user}"`, ...family.nas(apMac, client), "Message-Authenticator = 0x00"]);
        assert.equal(byMac.code, "Access-Accept", byMac.output);
        assert.deepEqual(replyAttributes(byMac.attributes), EXPECTED[family.dialect]);
      });
    }
  });
}

