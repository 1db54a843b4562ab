/**
 * Every model of the catalogue works: for each model and each hand-off of its family
 * (device-families.ts), a device of that model, registered and assigned to a location, is found
 * from the redirect its gateway sends, and the guest gets the location's login page. An AP nobody
 * registered gets the portal's refusal instead, so the check can fail. How each hand-off then
 * completes is tested per family (portal-gateways, portal-controllers, opennds.browser,
 * radius-gateways.browser).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DEVICE_FAMILIES, type HandoffId } from "../../src/modules/devices/device-families.js";
import { DEVICE_MODELS } from "../../src/modules/devices/device-models.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { omadaUrl, unifiUrl } from "./controller-world.js";
import { PortalClient, coovaUrl, makeWorld, merakiUrl, randomMac } from "./portal-world.js";

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const dashes = (mac: string) => mac.replace(/:/g, "-").toUpperCase();

/** openNDS FAS level 1: the record in base64, as openNDS builds it. */
function openNdsLevel1(path: string, ap: string): string {
  const record = [
    "hid=3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b",
    "clientip=192.168.8.10",
    `clientmac=${randomMac().toLowerCase()}`,
    "client_type=cpd_can",
    "cpi_query=",
    `gatewayname=${encodeURIComponent("Cafe Blau Node")}`,
    `gatewayurl=${encodeURIComponent("http://192.168.8.1:2050")}`,
    "version=10.2.0",
    "gatewayaddress=192.168.8.1:2050",
    `gatewaymac=${ap.toLowerCase()}`,
    `originurl=${encodeURIComponent("http://example.org/news")}`,
    "clientif=br-lan",
    "themespec=",
  ];
  return `${path}?fas=${encodeURIComponent(Buffer.from(`${record.join(", ")}, `).toString("base64"))}`;
}

/** The redirect each hand-off's gateway sends a guest with, naming the AP `ap`. A new hand-off id fails to compile until it has one. */
const REDIRECTS: Record<HandoffId, (path: string, ap: string) => string> = {
  coova: (path, ap) => coovaUrl(path, { called: ap, mac: randomMac() }),
  opennds: openNdsLevel1,
  meraki: (path, ap) => merakiUrl(path, { grant: "https://n143.network-auth.com/splash/grant", node: ap, client: randomMac() }),
  "meraki-signon": (path, ap) =>
    `${path}?${q({ login_url: "https://n143.network-auth.com/splash/login?mauth=x", continue_url: "http://example.org/", ap_mac: ap.toLowerCase(), client_mac: randomMac().toLowerCase() })}`,
  unifi: (_path, ap) => unifiUrl("", { ap, client: randomMac() }),
  omada: (path, ap) => omadaUrl(path, { client: randomMac(), ap }),
  mikrotik: (path, ap) => `${path}?${q({ "link-login-only": "http://10.5.50.1/login", "link-orig": "http://example.org/", "device-mac": ap, mac: randomMac(), ip: "10.5.50.23" })}`,
  aruba: (path, ap) => `${path}?${q({ cmd: "login", mac: randomMac().toLowerCase(), ip: "10.0.0.23", essid: "Guest", apname: "lobby", apmac: ap.toLowerCase(), url: "http://example.org/" })}`,
  ruckus: (path, ap) => `${path}?${q({ sip: "192.168.40.2", mac: ap.toLowerCase(), client_mac: randomMac(), uip: "192.168.40.77", ssid: "Guest", url: "http://example.org/" })}`,
  // SmartZone encrypts the client's MAC and address; without a controller at the location the page still shows.
  "ruckus-nbi": (path, ap) =>
    `${path}?${q({ nbiIP: "10.20.0.5", sip: "10.20.0.5", mac: ap.toLowerCase(), client_mac: "ENC2e50f302e3cc0f79756121786ce8955e7a8dbb9754ddeba0", uip: "ENCb3579628807a64f0e008793bd3623389", proxy: "0", ssid: "Guest", url: "http://example.org/", zoneName: "Cafe" })}`,
  cambium: (path, ap) => `${path}?${q({ ga_ssid: "Guest", ga_ap_mac: dashes(ap), ga_nas_id: "cafe", ga_srvr: "10.10.1.1", ga_cmac: dashes(randomMac()), ga_cip: "10.10.1.23", ga_orig_url: "http://example.org/" })}`,
};

for (const dialect of DIALECTS) {
  describe(`every model of the catalogue (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: "every-model-portal-secret", PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000" });
    });
    after(async () => t.close());

    it("is found from each of its family's redirects and gets the location's login page; an unregistered AP is refused", async () => {
      let checked = 0;
      for (const model of DEVICE_MODELS) {
        const w = await makeWorld(t);
        const ap = randomMac();
        const dev = await t.call("POST", "create-device", { device_name: model.id, mac_address: ap, model_id: model.id });
        assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
        const put = await t.call("POST", "device-assign-location", { location_id: w.locationId, device_id: dev.body.device_id });
        assert.equal(put.statusCode, 200, JSON.stringify(put.body));
        for (const handoff of DEVICE_FAMILIES[model.family].handoffs) {
          const client = new PortalClient(t.app);
          const page = await client.get(REDIRECTS[handoff](w.path, ap));
          assert.equal(page.statusCode, 200, `${model.id} / ${handoff}: ${page.body.slice(0, 400)}`);
          assert.match(page.body, /Welcome to Cafe Blau/, `${model.id} / ${handoff}`);
          const stranger = await client.get(REDIRECTS[handoff](w.path, randomMac()));
          assert.notEqual(stranger.statusCode, 200, `${model.id} / ${handoff}: an unregistered AP`);
          assert.doesNotMatch(stranger.body, /Welcome to Cafe Blau/, `${model.id} / ${handoff}`);
          checked++;
        }
      }
      assert.equal(checked, DEVICE_MODELS.reduce((n, m) => n + DEVICE_FAMILIES[m.family].handoffs.length, 0));
      assert.ok(checked >= DEVICE_MODELS.length);
    });
  });
}
