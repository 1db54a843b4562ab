/**
 * UniFi external portal. A UniFi gateway or AP sends the guest to
 * `http://<portal address>/guest/s/<site>/?ap=<AP MAC>&id=<client MAC>&t=<unix>&url=<original>&ssid=<SSID>`;
 * after the login the portal asks the UniFi Network controller to `authorize-guest` the client MAC.
 * Two flavours of controller: the classic Network application (`/api/login`, cookie `unifises`,
 * `/api/s/<site>/cmd/stamgr`) and UniFi OS consoles (`/api/auth/login`, the Network API under
 * `/proxy/network`, `X-CSRF-Token`), told apart by what the controller's root answers (UniFi OS:
 * 200; classic: a redirect to its login page). An API key (UniFi OS) is sent as `X-API-KEY`.
 */
import { macOrEmpty } from "../../mac-address.js";
import type { ControllerAccess } from "../../modules/controllers/controllers.service.js";
import type { OutboundRule } from "../../outbound-address.js";
import { CookieJar, ControllerError, type ControllerResponse, answerOf, controllerRequest, jsonOf } from "../controller-http.js";
import type { GatewayParse } from "../gateway-types.js";

/** UniFi site ids ("default", or 8 random characters). */
const SITE_RE = /^[A-Za-z0-9_-]{1,64}$/;

export function parseUnifi(site: string, q: Record<string, unknown>): GatewayParse {
  if (!SITE_RE.test(site)) return { kind: "refused", reason: "site" };
  const apMac = macOrEmpty(q.ap);
  const clientMac = macOrEmpty(q.id);
  if (!apMac) return { kind: "refused", reason: "ap" };
  if (!clientMac) return { kind: "refused", reason: "id" };
  // `url` (where the guest was going) and `ssid` are informative only: nothing is redirected to them.
  return { kind: "arrival", arrival: { state: { kind: "unifi", site, ap: apMac }, apMac, clientMac, targetHost: "" } };
}

/** What a UniFi session keeps between calls: the flavour, the cookies, the CSRF token. */
export interface UnifiSession {
  flavour?: "classic" | "os";
  jar: CookieJar;
  csrf: string;
  loggedIn: boolean;
}

export function newUnifiSession(): UnifiSession {
  return { jar: new CookieJar(), csrf: "", loggedIn: false };
}

/**
 * A call on the site's Network API with the session of earlier calls, renewed once when the
 * controller has forgotten it (401). A wrong site answers `api.err.NoSiteContext` (HTTP 400).
 */
async function siteCall(c: Call, method: "GET" | "POST", rest: string, json?: unknown): Promise<ControllerResponse> {
  if (!c.session.loggedIn) await login(c);
  let res = await send(c, method, sitePath(c, rest), json, commandHeaders(c));
  if (res.status === 401 && !("apiKey" in c.access.credentials)) {
    c.session.loggedIn = false;
    await login(c);
    res = await send(c, method, sitePath(c, rest), json, commandHeaders(c));
  }
  const updated = res.headers["x-updated-csrf-token"];
  if (typeof updated === "string" && updated) c.session.csrf = updated;
  if (res.status === 401 || res.status === 403) {
    c.session.loggedIn = false;
    throw new ControllerError("refused", "apiKey" in c.access.credentials ? "the controller refused the API key" : "the controller refused the credentials", answerOf(res));
  }
  if (jsonOf(res)?.meta?.msg === "api.err.NoSiteContext") throw new ControllerError("site", `the controller has no site "${c.access.site}"`, answerOf(res));
  if (res.status !== 200 || jsonOf(res)?.meta?.rc !== "ok") throw new ControllerError("rejected", `the controller refused ${method} ${rest}`, answerOf(res));
  return res;
}

/**
 * Test connection: reaches the controller (flavour), signs in, and reads the site
 * (`GET /api/s/<site>/self`, Art-of-WiFi's UniFi-API-client `list_self`:
 * https://github.com/Art-of-WiFi/UniFi-API-client/blob/master/src/Client.php). Throws ControllerError.
 */
export async function unifiCheck(c: Call): Promise<string> {
  await siteCall(c, "GET", "self");
  return `signed in (${"apiKey" in c.access.credentials ? "API key" : c.session.flavour === "os" ? "UniFi OS" : "classic Network application"}), site "${c.access.site}" found`;
}

/** The `allowed_subnet_<n>` entries of a guest_access setting, in order of n. */
function allowancesOf(setting: Record<string, unknown>): { slots: number; values: string[] } {
  const found: [number, string][] = [];
  for (const [k, v] of Object.entries(setting)) {
    const m = /^allowed_subnet_(\d{1,3})$/.exec(k);
    if (m && typeof v === "string") found.push([Number(m[1]), v.trim()]);
  }
  found.sort((a, b) => a[0] - b[0]);
  return { slots: found.reduce((n, [i]) => Math.max(n, i), 0), values: found.map(([, v]) => v).filter((v) => v !== "") };
}

/**
 * Sets the Hotspot Portal's Pre-Authorization Allowances (the guest_access setting's
 * `allowed_subnet_<n>`, which take host names as well as subnets): the venue's own entries are
 * kept, the ones this service pushed before (`previous`) are replaced by `hosts`. Read with
 * `GET /api/s/<site>/get/setting/guest_access`, written with `POST /api/s/<site>/set/setting/guest_access`
 * (UniFi-API-client's `set_guestlogin_settings_base`,
 * https://github.com/Art-of-WiFi/UniFi-API-client/blob/master/src/Client.php). Throws ControllerError.
 */
export async function unifiSetAllowances(c: Call, hosts: readonly string[], previous: readonly string[]): Promise<void> {
  const read = await siteCall(c, "GET", "get/setting/guest_access");
  const setting = (jsonOf(read)?.data ?? []).find((d: { key?: string }) => d?.key === "guest_access") ?? {};
  const current = allowancesOf(setting);
  const own = new Set([...previous, ...hosts].map((h) => h.toLowerCase()));
  const next = [...current.values.filter((v) => !own.has(v.toLowerCase())), ...hosts];
  const body: Record<string, string> = {};
  for (let i = 1; i <= Math.max(next.length, current.slots); i++) body[`allowed_subnet_${i}`] = next[i - 1] ?? "";
  await siteCall(c, "POST", "set/setting/guest_access", body);
}

export interface UnifiGrant {
  /** Client MAC, canonical. */
  mac: string;
  apMac: string;
  minutes: number;
  /** kbit/s; undefined: the controller's own limit. */
  up?: number;
  down?: number;
  /** Data quota in MB; undefined: none. */
  bytes?: number;
}

/** The body of the stamgr command; UniFi wants MACs in lower case. */
export function authorizeGuestCommand(g: UnifiGrant): Record<string, unknown> {
  const cmd: Record<string, unknown> = { cmd: "authorize-guest", mac: g.mac.toLowerCase(), minutes: g.minutes };
  if (g.up) cmd.up = g.up;
  if (g.down) cmd.down = g.down;
  if (g.bytes) cmd.bytes = g.bytes;
  if (g.apMac) cmd.ap_mac = g.apMac.toLowerCase();
  return cmd;
}

interface Call {
  access: ControllerAccess;
  session: UnifiSession;
  timeoutMs: number;
  rule: OutboundRule;
}

function send(c: Call, method: "GET" | "POST", path: string, json?: unknown, headers: Record<string, string> = {}): Promise<ControllerResponse> {
  return controllerRequest({ method, url: `${c.access.url}${path}`, json, headers, fingerprint: c.access.tlsFingerprint, timeoutMs: c.timeoutMs, rule: c.rule });
}

async function detectFlavour(c: Call): Promise<"classic" | "os"> {
  const res = await send(c, "GET", "/");
  return res.status === 200 ? "os" : "classic";
}

async function login(c: Call): Promise<void> {
  const creds = c.access.credentials;
  if ("apiKey" in creds) return;
  const s = c.session;
  s.flavour ??= await detectFlavour(c);
  s.jar = new CookieJar();
  const res = await send(c, "POST", s.flavour === "os" ? "/api/auth/login" : "/api/login", { username: creds.username, password: creds.password });
  if (res.status !== 200) throw new ControllerError("refused", "the controller refused the login", answerOf(res));
  s.jar.take(res.headers);
  const header = res.headers["x-csrf-token"];
  s.csrf = (Array.isArray(header) ? header[0] : header) ?? s.jar.get("csrf_token") ?? "";
  s.loggedIn = true;
}

/** A path of the site's Network API: under `/proxy/network` on UniFi OS (and with an API key). */
function sitePath(c: Call, rest: string): string {
  const site = encodeURIComponent(c.access.site);
  const os = "apiKey" in c.access.credentials || c.session.flavour === "os";
  return `${os ? "/proxy/network" : ""}/api/s/${site}/${rest}`;
}

function commandPath(c: Call): string {
  return sitePath(c, "cmd/stamgr");
}

function commandHeaders(c: Call): Record<string, string> {
  const creds = c.access.credentials;
  if ("apiKey" in creds) return { "x-api-key": creds.apiKey };
  return { ...c.session.jar.header(), ...(c.session.csrf ? { "x-csrf-token": c.session.csrf } : {}) };
}

/**
 * Authorises a guest on the controller, reusing the session (cookies, CSRF token) of earlier calls;
 * a session the controller no longer knows (401) is renewed once. Throws ControllerError.
 */
export async function unifiAuthorizeGuest(c: Call, grant: UnifiGrant): Promise<void> {
  if (!c.session.loggedIn) await login(c);
  let res = await send(c, "POST", commandPath(c), authorizeGuestCommand(grant), commandHeaders(c));
  if (res.status === 401 && !("apiKey" in c.access.credentials)) {
    c.session.loggedIn = false;
    await login(c);
    res = await send(c, "POST", commandPath(c), authorizeGuestCommand(grant), commandHeaders(c));
  }
  const updated = res.headers["x-updated-csrf-token"];
  if (typeof updated === "string" && updated) c.session.csrf = updated;
  if (res.status === 401 || res.status === 403) {
    c.session.loggedIn = false;
    throw new ControllerError("refused", "the controller refused the credentials", answerOf(res));
  }
  if (res.status !== 200 || jsonOf(res)?.meta?.rc !== "ok") throw new ControllerError("rejected", "the controller did not authorise the guest", answerOf(res));
}
