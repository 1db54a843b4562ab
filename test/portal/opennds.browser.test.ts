/**
 * openNDS FAS end to end in Debian's Chromium: a stand-in router (test/portal/opennds-stand-in.ts)
 * sends the guest to the location's page at faslevel 1 (base64), 2 (AES-256-CBC with the device's
 * secret as faskey) and 3 (the same, with the router's authmon collecting the grant); the guest
 * logs in and is let in by the router, with the location's session time, rates and remaining cap
 * in openNDS's units. Bad or forged redirects get the portal's error page.
 */
import assert from "node:assert/strict";
import { type Server, createServer as createHttpServer } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { type NdsRouter, startNdsRouter } from "./opennds-stand-in.js";
import { PortalClient, type World, makeWorld, randomMac } from "./portal-world.js";

/** 3600 s, 256,000 B/s up, 1,250,000 B/s down, a daily cap of 10,240,000 bytes. */
const OPTIONS = { session_time_limit: 3600, max_bandwidth_up: 256_000, max_bandwidth: 1_250_000, daily_bandwidth_cap: 10_240_000 };

for (const dialect of DIALECTS) {
  describe(`openNDS FAS in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    const routers: NdsRouter[] = [];
    let landing: Server;
    let landingUrl = "";

    before(async () => {
      landing = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "text/html", connection: "close" }).end("<!doctype html><title>Landed</title><h1>Landed</h1>"));
      await new Promise<void>((resolve) => landing.listen(0, "127.0.0.1", resolve));
      landingUrl = `http://127.0.0.1:${(landing.address() as { port: number }).port}/news`;
      const port = await freeTcpPort();
      t = await createTestApp(dialect, { PUBLIC_URL: `http://127.0.0.1:${port}`, PORTAL_SECRET: "nds-portal-secret", PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000" });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await Promise.all(routers.map((r) => r.close()));
      await new Promise<void>((resolve) => landing?.close(() => resolve()));
      await t?.close();
    });

    /** A location (with OPTIONS) and an openNDS router registered there as an OpenWrt device. */
    async function ndsWorld(level: 1 | 2 | 3, opts: { faskey?: string } = {}): Promise<{ w: World; router: NdsRouter; secret: string }> {
      const w = await makeWorld(t);
      const set = await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...OPTIONS });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      const mac = randomMac();
      const dev = await t.call("POST", "create-device", { device_name: "Router", mac_address: mac, model_id: "glinet-gl-mt3000" });
      assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
      const put = await t.call("POST", "device-assign-location", { location_id: w.locationId, device_id: dev.body.device_id });
      assert.equal(put.statusCode, 200, JSON.stringify(put.body));
      const shown = await t.call("GET", "get-device", { device_ids: String(dev.body.device_id) });
      const secret = shown.body.data[0].radius_secret;
      assert.equal(typeof secret, "string", JSON.stringify(shown.body));
      const router = await startNdsRouter({ level, faskey: opts.faskey ?? secret, mac, fasUrl: level === 3 ? `${w.url}/authmon` : w.url, originurl: landingUrl });
      routers.push(router);
      return { w, router, secret };
    }

    async function phonePage(): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      return context.newPage();
    }

    async function clickThrough(page: Page): Promise<void> {
      await page.getByLabel("I accept the terms of use").check();
      await page.getByRole("button", { name: "Connect", exact: true }).last().click();
    }

    for (const level of [1, 2] as const) {
      it(`level ${level}: the router sends the guest, the portal sends them to its authdir with the token`, async () => {
        const { router } = await ndsWorld(level);
        const clientMac = randomMac();
        const page = await phonePage();
        await page.goto(router.startUrl(clientMac));
        assert.equal(await page.textContent("h1"), "Welcome to Cafe Blau");
        // The router lets the guest in and sends them on to where they were going (the login page's
        // form-action must allow that redirect too, or Chromium blocks the login's post).
        await Promise.all([page.waitForURL(landingUrl), clickThrough(page)]);
        assert.equal(await page.textContent("h1"), "Landed");
        const client = router.clients.get(clientMac)!;
        assert.equal(client.authed?.via, "authdir");
        assert.equal(client.authed?.redir, landingUrl);
        // 3600 s = 60 min; 256,000 B/s = 2,048 kbit/s; 1,250,000 B/s = 10,000 kbit/s; 10,240,000 B = 10,000 kB.
        assert.equal(
          Buffer.from(client.authed?.custom ?? "", "base64").toString(),
          "sessionlength=60, uploadrate=2048, downloadrate=10000, uploadquota=10000, downloadquota=10000",
        );
        const logins = await t.db.selectFrom("logins").select(["client_mac"]).where("client_mac", "=", clientMac).execute();
        assert.equal(logins.length, 1, "the login is recorded with the client's MAC from the record");
        await page.context().close();
      });
    }

    it("level 3: the guest sees the connected page and the router's authmon collects the grant once", async () => {
      const { router } = await ndsWorld(3);
      assert.equal((await router.authmonPost("clear", "none")).status, 200);
      assert.equal(await router.authmonPoll(), "*", "nothing waits before the login");
      const clientMac = randomMac();
      const page = await phonePage();
      await page.goto(router.startUrl(clientMac));
      assert.equal(await page.textContent("h1"), "Welcome to Cafe Blau");
      await clickThrough(page);
      await page.waitForLoadState();
      assert.match((await page.textContent("h1")) ?? "", /You are online/);
      const authed = () => router.clients.get(clientMac)?.authed;
      assert.equal(authed(), undefined, "the browser is not sent to the router");
      const answer = await router.authmonPoll();
      assert.match(answer, /^\* [0-9a-f]{64}%20/);
      assert.equal(authed()?.via, "authmon");
      assert.deepEqual(authed()?.params.slice(1), ["60", "2048", "10000", "10000", "10000", "guestwifi"]);
      assert.equal(await router.authmonPoll(), "*", "acknowledged grants are not sent again");
      await page.context().close();
    });

    it("level 3: list sends and deletes; clear drops what waits; notifications are acknowledged", async () => {
      const { router } = await ndsWorld(3);
      const page = await phonePage();
      await page.goto(router.startUrl(randomMac()));
      await clickThrough(page);
      await page.waitForLoadState();
      await page.context().close();
      const page2 = await phonePage();
      await page2.goto(router.startUrl(randomMac()));
      await clickThrough(page2);
      await page2.waitForLoadState();
      await page2.context().close();
      const listed = await router.authmonPost("list", "none");
      assert.equal(listed.body.split(" ").length, 3, listed.body);
      assert.equal((await router.authmonPost("list", "none")).body, "*");
      assert.equal((await router.authmonPost("deauthed", "method=idle_deauth")).body, "ack");
      const page3 = await phonePage();
      await page3.goto(router.startUrl(randomMac()));
      await clickThrough(page3);
      await page3.waitForLoadState();
      await page3.context().close();
      assert.equal((await router.authmonPost("clear", "none")).body, "");
      assert.equal((await router.authmonPost("view", "none")).body, "*");
    });

    it("refuses forged, foreign or broken redirects with the portal's error page, and writes nothing", async () => {
      const { w, router } = await ndsWorld(2);
      const wrongKey = await startNdsRouter({ level: 2, faskey: "not-the-device-secret", mac: router.mac, fasUrl: w.url });
      routers.push(wrongKey);
      const page = await phonePage();
      const res = await page.goto(wrongKey.startUrl(randomMac()));
      assert.equal(res?.status(), 400);
      assert.match((await page.textContent("main")) ?? "", /invalid request/);
      await page.context().close();

      const c = new PortalClient(t.app);
      const b64 = (s: string) => Buffer.from(s).toString("base64");
      const hid = "a".repeat(64);
      const rec = (fields: Record<string, string>) =>
        b64(Object.entries({ hid, clientip: "192.168.8.20", clientmac: "02:00:00:00:00:01", gatewayname: "Cafe", gatewayaddress: "192.168.8.1:2050", gatewaymac: router.mac.toLowerCase(), originurl: "", ...fields }).map(([k, v]) => `${k}=${v}`).join(", "));
      const cases: [string, number][] = [
        [`${w.path}?fas=%%%`, 400],
        [`${w.path}?fas=${encodeURIComponent(rec({ hid: "short" }))}`, 400],
        [`${w.path}?fas=${encodeURIComponent(rec({ gatewayaddress: "8.8.8.8:2050" }))}`, 400],
        [`${w.path}?fas=${encodeURIComponent(rec({ gatewayaddress: "192.168.8.1:99999" }))}`, 400],
        [`${w.path}?fas=${encodeURIComponent(rec({ gatewaymac: "nope" }))}`, 400],
        [`${w.path}?fas=${encodeURIComponent(rec({ gatewaymac: "02:11:22:33:44:55" }))}`, 403],
        [`${w.path}?fas=${encodeURIComponent(rec({}))}&iv=0123456789abcdef`, 400],
        [`${w.path}?fas=${encodeURIComponent(rec({}))}&iv=short`, 400],
        [`${w.path}/authmon?fas=${encodeURIComponent(rec({}))}`, 400],
        [`${w.path}/authmon`, 400],
        [`/portal/c/${w.campaignFilename}?fas=${encodeURIComponent(rec({}))}&iv=0123456789abcdef`, 400],
      ];
      const before = await t.db.selectFrom("logins").select(t.db.fn.countAll().as("n")).executeTakeFirstOrThrow();
      for (const [url, status] of cases) {
        const r = await c.get(url);
        assert.equal(r.statusCode, status, url);
        assert.match(r.headers["content-type"] as string, /text\/html/, url);
        assert.doesNotMatch(r.body, /at \w+ \(|Error:/, url);
      }
      // A valid level-1 record of this router shows the page, on the location's and the campaign's page.
      assert.equal((await c.get(`${w.path}?fas=${encodeURIComponent(rec({}))}`)).statusCode, 200);
      assert.equal((await c.get(`/portal/c/${w.campaignFilename}?fas=${encodeURIComponent(rec({}))}`)).statusCode, 200);

      const authmon = (form: Record<string, string>) =>
        t.app.inject({ method: "POST", url: `${w.path}/authmon`, headers: { "content-type": "application/x-www-form-urlencoded" }, payload: new URLSearchParams(form).toString() });
      const forms: Record<string, string>[] = [{}, { auth_get: "view" }, { auth_get: "drop", gatewayhash: "a".repeat(64) }, { auth_get: "view", gatewayhash: "xyz" }];
      for (const form of forms) {
        const r = await authmon(form);
        assert.equal(r.statusCode, 400, JSON.stringify(form));
      }
      const unknown = await t.app.inject({ method: "POST", url: "/portal/l/no-such-place/authmon", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: `auth_get=view&gatewayhash=${"a".repeat(64)}&payload=bm9uZQ==` });
      assert.equal(unknown.statusCode, 404);
      const after = await t.db.selectFrom("logins").select(t.db.fn.countAll().as("n")).executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
    });
  });
}
