/** Portal fixtures for controller families: a location with a UniFi or Omada AP and its controller (made through the API). */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { TestApp } from "../helpers/app.js";
import { type World, makeWorld, randomMac } from "./portal-world.js";

export interface ControllerWorld extends World {
  controllerId: number;
}

export interface ControllerParams {
  type: "unifi" | "omada" | "ruckus";
  url: string;
  site?: string;
  username?: string;
  password?: string;
  api_key?: string;
  tls_fingerprint?: string;
}

/** A location whose AP (of `model`) is let in through the given controller; `controller: null` assigns none. */
export async function controllerWorld(
  t: TestApp,
  model: string,
  controller: ControllerParams | null,
  campaign: Record<string, unknown> = {},
  apMac = randomMac(),
): Promise<ControllerWorld> {
  const w = await makeWorld(t, campaign);
  const dev = await t.call("POST", "create-device", { device_name: "Lobby AP", mac_address: apMac, model_id: model });
  assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
  const put = await t.call("POST", "device-assign-location", { location_id: w.locationId, device_id: dev.body.device_id });
  assert.equal(put.statusCode, 200, JSON.stringify(put.body));
  let controllerId = 0;
  if (controller) {
    const c = await t.call("POST", "create-or-update-controller", { name: `${controller.type} controller`, ...controller });
    assert.equal(c.statusCode, 200, JSON.stringify(c.body));
    controllerId = c.body.controller_id;
    const a = await t.call("POST", "location-assign-controller", { location_id: w.locationId, controller_id: controllerId });
    assert.equal(a.statusCode, 200, JSON.stringify(a.body));
  }
  return { ...w, apMac, deviceId: dev.body.device_id, controllerId };
}

/** The redirect a UniFi AP sends a guest with. */
export function unifiUrl(base: string, p: { site?: string; ap: string; client: string; url?: string; ssid?: string }): string {
  const q = new URLSearchParams({
    ap: p.ap.toLowerCase(),
    id: p.client.toLowerCase(),
    t: String(Math.floor(Date.now() / 1000)),
    url: p.url ?? "http://example.org/",
    ssid: p.ssid ?? "CafeGuest",
  });
  return `${base}/guest/s/${p.site ?? "default"}/?${q.toString()}`;
}

/** The redirect an Omada EAP (apMac) or gateway (gatewayMac) sends a guest with, to the location's page. */
export function omadaUrl(
  pageUrl: string,
  p: { client: string; ap?: string; gateway?: string; site?: string; ssid?: string; radio?: string; vid?: string; redirect?: string },
): string {
  const dashes = (m: string) => m.replace(/:/g, "-").toUpperCase();
  const q = new URLSearchParams({ clientMac: dashes(p.client) });
  if (p.ap) {
    q.set("apMac", dashes(p.ap));
    q.set("ssidName", p.ssid ?? "Cafe Guest");
    q.set("radioId", p.radio ?? "1");
  }
  if (p.gateway) {
    q.set("gatewayMac", dashes(p.gateway));
    q.set("vid", p.vid ?? "10");
  }
  q.set("site", p.site ?? "5f2a9c1e8b7d4a0012345678");
  q.set("t", String(Math.floor(Date.now() / 1000) * 1_000_000));
  q.set("redirectUrl", p.redirect ?? "http://example.org/");
  return `${pageUrl}?${q.toString()}`;
}

/**
 * On a click-through page: accepts the terms and taps Connect, when the location's controller will
 * refuse the guest; the login answers 502 with the retry page.
 */
export async function connectRefusedByController(page: Page): Promise<void> {
  await page.getByLabel("I accept the terms of use").check();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/portal/login/clickthrough")),
    page.getByRole("button", { name: "Connect", exact: true }).last().click(),
  ]);
  assert.equal(answer.status(), 502);
  await page.getByText("Please try again in a moment.").waitFor();
}
