/**
 * The values of a generated configuration in Debian's Chromium, beside the radclient check of its
 * RADIUS host, ports and secret (device-config.test.ts): a MikroTik router serves the login.html
 * its .rsc fetches (from the gateway's own fetch URL in the script), with RouterOS's variables
 * filled in, and a CoovaChilli gateway sends the guest to its file's HS_UAMFORMAT with chilli's
 * hand-off parameters; each time the portal answers the location's page (the campaign, ready for
 * the login), at the portal URL the file names, and the gateway's page is not refused.
 */
import assert from "node:assert/strict";
import { type Server, createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { coovaUrl, makeWorld, randomMac } from "../portal/portal-world.js";

/** `name=value` pairs of one RouterOS command line (values quoted or bare). */
function rosArgs(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of line.matchAll(/([a-z-]+)=("(?:[^"\\]|\\.)*"|\S+)/g)) out[m[1]] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, "$1") : m[2];
  return out;
}

for (const dialect of DIALECTS) {
  describe(`generated configurations in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let router: Server | undefined;

    before(async () => {
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base, PORTAL_SECRET: "config-browser-secret" });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      if (router) await new Promise<void>((resolve) => router?.close(() => resolve()));
      await t?.close();
    });

    it("MikroTik: the login.html the .rsc fetches takes the guest to the portal URL the script names, which shows the location's page", async () => {
      const w = await makeWorld(t);
      const mac = randomMac();
      const dev = await t.call("POST", "create-device", { device_name: "hAP", mac_address: mac, model_id: "mikrotik-hap-ac2" });
      assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
      await t.call("POST", "device-assign-location", { location_id: w.locationId, device_id: dev.body.device_id });
      const file = (await t.call("GET", "get-device-config", { device_id: dev.body.device_id })).body.data;
      const lines: string[] = file.content.split("\n");
      const portalUrl = /^# Portal: (\S+)$/m.exec(file.content)?.[1];
      assert.equal(portalUrl, w.url, "the script names the location's portal URL");
      // What the router's /tool fetch gets, from the URL in the script (the gateway's own, keyed fetch).
      const fetchUrl = rosArgs(lines.find((l) => l.startsWith("/tool fetch"))!).url;
      const fetched = await fetch(fetchUrl);
      assert.equal(fetched.status, 200);
      const loginHtml = await fetched.text();

      // The router: serves login.html with its variables filled in, and takes the login post.
      const routerPort = await freeTcpPort();
      const self = `http://127.0.0.1:${routerPort}`;
      const client = { mac: randomMac(), ip: "10.5.50.23" };
      router = createServer((req, res) => {
        const html = loginHtml.replace(/\$\(([a-z-]+)\)/g, (_all, name: string) => {
          const values: Record<string, string> = { "link-login-only": `${self}/login`, "link-orig-esc": encodeURIComponent("http://example.org/"), mac: client.mac, ip: client.ip, error: "" };
          return values[name] ?? "";
        });
        res.writeHead(200, { "content-type": "text/html", connection: "close" }).end(req.url === "/login.html" ? html : "<title>Router login</title>");
      });
      await new Promise<void>((resolve) => router?.listen(routerPort, "127.0.0.1", resolve));

      const page = await browser.newPage();
      try {
        const portal = page.waitForResponse((r) => r.url().startsWith(w.url) && r.request().isNavigationRequest());
        await page.goto(`${self}/login.html`);
        const answer = await portal;
        assert.equal(answer.status(), 200, "the portal accepts the hand-off the login.html sends");
        const landed = new URL(answer.url());
        assert.equal(`${landed.origin}${landed.pathname}`, w.url);
        for (const name of ["link-login-only", "mac", "ip", "device-mac"]) assert.ok(landed.searchParams.has(name), name);
        assert.equal(landed.searchParams.get("device-mac")?.toUpperCase(), mac);
        await page.getByText("Welcome to Cafe Blau").waitFor();
        assert.equal(await page.locator('input[name="state"]').count() > 0, true, "the login form is ready");
        assert.equal(await page.getByText("not registered").count(), 0);
      } finally {
        await page.close();
      }
    });

    it("CoovaChilli: HS_UAMFORMAT with chilli's hand-off parameters opens the location's page", async () => {
      const w = await makeWorld(t);
      const file = (await t.call("GET", "get-device-config", { device_id: w.deviceId })).body.data;
      const vars = Object.fromEntries(
        (file.content as string)
          .split("\n")
          .map((l) => /^(HS_[A-Z0-9]+)=(.*)$/.exec(l))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => [m[1], m[2].replace(/^'(.*)'$/, "$1")]),
      );
      assert.equal(vars.HS_UAMFORMAT, w.url);
      const page = await browser.newPage();
      try {
        const res = await page.goto(coovaUrl(vars.HS_UAMFORMAT, { called: vars.HS_NASID, mac: randomMac(), userurl: "http://example.org/" }));
        assert.equal(res?.status(), 200);
        await page.getByText("Welcome to Cafe Blau").waitFor();
        assert.equal(await page.locator('input[name="state"]').count() > 0, true, "the login form is ready");
      } finally {
        await page.close();
      }
    });
  });
}
