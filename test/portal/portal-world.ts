/**
 * Portal test fixtures: a location with a campaign and a registered access point (made through
 * the API), gateway redirect URLs as CoovaChilli and Meraki build them, and a cookie-keeping
 * client for app.inject().
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { TestApp } from "../helpers/app.js";
import { locationParams } from "../helpers/app.js";

export interface World {
  locationId: number;
  /** The location's url as get-location reports it. */
  url: string;
  path: string;
  campaignId: number;
  campaignFilename: string;
  deviceId: number;
  apMac: string;
}

let macCounter = 0;
export function randomMac(): string {
  const b = randomBytes(6);
  b[0] = (b[0] & 0xfc) | 0x02; // locally administered, unicast
  b[5] = (b[5] + ++macCounter) & 0xff;
  return [...b].map((x) => x.toString(16).padStart(2, "0").toUpperCase()).join(":");
}

export async function makeWorld(
  t: TestApp,
  campaign: Record<string, unknown> = {},
  opts: { identifier?: string; apMac?: string } = {},
): Promise<World> {
  const as = { identifier: opts.identifier };
  const loc = await t.call("POST", "create-or-update-location", locationParams({ timezone: "Europe/Berlin" }), as);
  assert.equal(loc.statusCode, 200, JSON.stringify(loc.body));
  const locationId = loc.body.location_id as number;
  const created = await t.call(
    "POST",
    "create-or-update-campaign",
    {
      template_campaign_id: 1,
      name: "Cafe",
      ssid: "CafeWiFi",
      title_text: "Welcome to Cafe Blau",
      footer_text: "Cafe Blau, 1 Main Street",
      text_color: "0b3d91",
      background: "fdf6e3",
      custom_terms: "<p>Be <strong>nice</strong>.</p>",
      login_options: JSON.stringify({ custom: 1, email: 1, clickthrough: 1 }),
      ...campaign,
    },
    as,
  );
  assert.equal(created.statusCode, 200, JSON.stringify(created.body));
  const campaignId = created.body.campaign_id as number;
  const assign = await t.call("POST", "location-assign-campaign", { location_id: locationId, campaign_id: campaignId }, as);
  assert.equal(assign.statusCode, 200, JSON.stringify(assign.body));
  const apMac = opts.apMac ?? randomMac();
  const dev = await t.call("POST", "create-device", { device_name: "AP", mac_address: apMac, model_id: "coovachilli" }, as);
  assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
  const deviceId = dev.body.device_id as number;
  const put = await t.call("POST", "device-assign-location", { location_id: locationId, device_id: deviceId }, as);
  assert.equal(put.statusCode, 200, JSON.stringify(put.body));
  const read = await t.call("GET", "get-location", { location_ids: String(locationId) }, as);
  assert.equal(read.statusCode, 200, JSON.stringify(read.body));
  const url = read.body.data[0].url as string;
  return {
    locationId,
    url,
    path: new URL(url).pathname,
    campaignId,
    campaignFilename: created.body.campaign_filename as string,
    deviceId,
    apMac,
  };
}

/** The AP's registered address (devices.wan_ip): an allowed hand-off target besides the defaults. */
export async function setApAddress(t: TestApp, deviceId: number, ip: string): Promise<void> {
  await t.db.updateTable("devices").set({ wan_ip: ip }).where("id", "=", deviceId).execute();
}

export interface CoovaParams {
  uamip?: string;
  uamport?: number;
  challenge?: string;
  called: string;
  mac?: string;
  userurl?: string;
  res?: string;
}

const dashes = (mac: string) => mac.replace(/:/g, "-").toUpperCase();

/** The redirect URL CoovaChilli builds: its parameters in its order, then `md` when it has a uamsecret. */
export function coovaUrl(base: string, p: CoovaParams, uamsecret?: string): string {
  const enc = (s: string) => encodeURIComponent(s);
  let url =
    `${base}?res=${p.res ?? "notyet"}&uamip=${p.uamip ?? "10.1.0.1"}&uamport=${p.uamport ?? 3990}` +
    (p.challenge === "" ? "" : `&challenge=${p.challenge ?? randomBytes(16).toString("hex")}`) +
    `&called=${enc(dashes(p.called))}` +
    (p.mac ? `&mac=${enc(dashes(p.mac))}&ip=10.1.0.7` : "") +
    "&nasid=cafe-ap&sessionid=5c1e7a2b00000001" +
    (p.userurl ? `&userurl=${enc(p.userurl)}` : "");
  if (uamsecret !== undefined) {
    const md = createHash("md5").update(url).update(uamsecret).digest("hex").toUpperCase();
    url += `&md=${md}`;
  }
  return url;
}

export function merakiUrl(base: string, p: { grant: string; cont?: string; node: string; client?: string }): string {
  const q = new URLSearchParams({ base_grant_url: p.grant, user_continue_url: p.cont ?? "http://example.org/", node_mac: p.node.toLowerCase() });
  if (p.client) q.set("client_mac", p.client.toLowerCase());
  q.set("client_ip", "10.162.50.40");
  return `${base}?${q.toString()}`;
}

export const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

export interface PortalResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  location?: string;
}

/** A browser-like client over app.inject: keeps cookies, sends Accept: text/html, from address `ip`. */
export class PortalClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly ua = IPHONE_UA,
    private readonly ip = "127.0.0.1",
  ) {}

  private async send(method: "GET" | "POST", url: string, form?: Record<string, string>): Promise<PortalResponse> {
    const path = url.replace(/^https?:\/\/[^/]+/, "");
    const headers: Record<string, string> = { accept: "text/html,application/xhtml+xml", "user-agent": this.ua };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await this.app.inject({
      method,
      url: path,
      remoteAddress: this.ip,
      headers: form ? { ...headers, "content-type": "application/x-www-form-urlencoded" } : headers,
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    const set = res.headers["set-cookie"];
    for (const c of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = c.split(";");
      const [k, ...v] = pair.split("=");
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(k);
      else this.cookies.set(k, v.join("="));
    }
    return { statusCode: res.statusCode, headers: res.headers, body: res.body, location: res.headers.location as string | undefined };
  }

  get(url: string) {
    return this.send("GET", url);
  }

  post(url: string, form: Record<string, string>) {
    return this.send("POST", url, form);
  }
}

/** The signed page state of a rendered page (every form carries the same one). */
export function stateOf(html: string): string {
  const m = /name="state" value="([^"]+)"/.exec(html);
  assert.ok(m, "the page carries a state field");
  return m[1].replace(/&amp;/g, "&");
}

export function countLogins(t: TestApp, locationId: number) {
  return t.db.selectFrom("logins").selectAll().where("location_id", "=", locationId).orderBy("id").execute();
}
