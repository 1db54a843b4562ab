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

function commandPath(c: Call): string {
  const site = encodeURIComponent(c.access.site);
  const os = "apiKey" in c.access.credentials || c.session.flavour === "os";
  return `${os ? "/proxy/network" : ""}/api/s/${site}/cmd/stamgr`;
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
