/**
 * TP-Link Omada external portal. An EAP sends the guest with `clientMac, apMac, ssidName, radioId,
 * site, t, redirectUrl`, a gateway with `clientMac, gatewayMac, vid, site, t, redirectUrl`. After
 * the login the portal grants access through the controller's hotspot operator API: `GET /api/info`
 * (the controller id), `POST /<id>/api/v2/hotspot/login` (the answer's token is the CSRF token of
 * the session), then `POST /<id>/api/v2/hotspot/extPortal/auth` with the client and the session
 * time in microseconds.
 */
import { macOrEmpty } from "../../mac-address.js";
import type { ControllerAccess } from "../../modules/controllers/controllers.service.js";
import type { OutboundRule } from "../../outbound-address.js";
import { CookieJar, ControllerError, type ControllerResponse, answerOf, controllerRequest, jsonOf } from "../controller-http.js";
import { param } from "../gateway-params.js";
import type { GatewayParse, OmadaState } from "../gateway-types.js";

const SITE_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** An SSID: 1 to 32 characters, no control characters. */
const SSID_RE = /^[^\p{Cc}]{1,32}$/u;

export function parseOmada(q: Record<string, unknown>): GatewayParse {
  const clientMac = macOrEmpty(q.clientMac);
  const apMac = macOrEmpty(q.apMac);
  const gatewayMac = macOrEmpty(q.gatewayMac);
  const site = param(q, "site", 64);
  if (!clientMac) return { kind: "refused", reason: "clientMac" };
  if (!SITE_RE.test(site)) return { kind: "refused", reason: "site" };
  let state: OmadaState;
  if (apMac) {
    const ssid = param(q, "ssidName", 64);
    const radio = param(q, "radioId", 2);
    if (!SSID_RE.test(ssid)) return { kind: "refused", reason: "ssidName" };
    if (!/^[0-9]$/.test(radio)) return { kind: "refused", reason: "radioId" };
    state = { kind: "omada", site, via: "ap", ap: apMac, ssid, radio: Number(radio), vid: 0 };
  } else if (gatewayMac) {
    const vid = param(q, "vid", 4);
    if (!/^\d{1,4}$/.test(vid) || Number(vid) < 1 || Number(vid) > 4094) return { kind: "refused", reason: "vid" };
    state = { kind: "omada", site, via: "gateway", ap: gatewayMac, ssid: "", radio: 0, vid: Number(vid) };
  } else {
    return { kind: "refused", reason: "apMac" };
  }
  // redirectUrl (where the guest was going) is informative only: nothing is redirected to it.
  return { kind: "arrival", arrival: { state, apMac: state.ap, clientMac, targetHost: "" } };
}

/** Omada writes MACs as AA-BB-CC-DD-EE-FF. */
const omadaMac = (mac: string) => mac.replace(/:/g, "-").toUpperCase();

/** The body of extPortal/auth for a client let in for `seconds`. */
export function extPortalAuthBody(state: OmadaState, clientMac: string, seconds: number): Record<string, unknown> {
  const common = { clientMac: omadaMac(clientMac), site: state.site, time: seconds * 1_000_000, authType: 4 };
  return state.via === "ap"
    ? { ...common, apMac: omadaMac(state.ap), ssidName: state.ssid, radioId: state.radio }
    : { ...common, gatewayMac: omadaMac(state.ap), vid: state.vid };
}

export interface OmadaSession {
  controllerId: string;
  jar: CookieJar;
  csrf: string;
  loggedIn: boolean;
}

export function newOmadaSession(): OmadaSession {
  return { controllerId: "", jar: new CookieJar(), csrf: "", loggedIn: false };
}

interface Call {
  access: ControllerAccess;
  session: OmadaSession;
  timeoutMs: number;
  rule: OutboundRule;
}

function send(c: Call, method: "GET" | "POST" | "PATCH", path: string, json?: unknown, headers: Record<string, string> = {}): Promise<ControllerResponse> {
  return controllerRequest({ method, url: `${c.access.url}${path}`, json, headers, fingerprint: c.access.tlsFingerprint, timeoutMs: c.timeoutMs, rule: c.rule });
}

const CONTROLLER_ID_RE = /^[A-Za-z0-9_-]{1,128}$/;

async function login(c: Call): Promise<void> {
  const creds = c.access.credentials;
  if (!("username" in creds)) throw new ControllerError("refused", "an Omada controller needs a hotspot operator's username and password");
  const s = c.session;
  if (!s.controllerId) {
    const info = await send(c, "GET", "/api/info");
    const id = jsonOf(info)?.result?.omadacId;
    if (info.status !== 200 || typeof id !== "string" || !CONTROLLER_ID_RE.test(id)) {
      throw new ControllerError("rejected", "the controller did not tell its id (/api/info)", answerOf(info));
    }
    s.controllerId = id;
  }
  s.jar = new CookieJar();
  const res = await send(c, "POST", `/${s.controllerId}/api/v2/hotspot/login`, { name: creds.username, password: creds.password });
  const body = jsonOf(res);
  if (res.status !== 200 || body?.errorCode !== 0 || typeof body?.result?.token !== "string") {
    throw new ControllerError("refused", "the controller refused the hotspot operator's login", answerOf(res));
  }
  s.jar.take(res.headers);
  s.csrf = body.result.token;
  s.loggedIn = true;
}

async function authorize(c: Call, body: Record<string, unknown>): Promise<ControllerResponse> {
  return send(c, "POST", `/${c.session.controllerId}/api/v2/hotspot/extPortal/auth`, body, { ...c.session.jar.header(), "csrf-token": c.session.csrf });
}

/**
 * Lets the client in through the hotspot operator API, reusing the session of earlier calls; a
 * session the controller no longer accepts is renewed once. Throws ControllerError.
 */
export async function omadaAuthorize(c: Call, state: OmadaState, clientMac: string, seconds: number): Promise<void> {
  const body = extPortalAuthBody(state, clientMac, seconds);
  const reused = c.session.loggedIn;
  if (!reused) await login(c);
  let res = await authorize(c, body);
  if (reused && (res.status === 401 || res.status === 403 || jsonOf(res)?.errorCode !== 0)) {
    c.session.loggedIn = false;
    await login(c);
    res = await authorize(c, body);
  }
  if (res.status !== 200 || jsonOf(res)?.errorCode !== 0) {
    c.session.loggedIn = false;
    throw new ControllerError("rejected", "the controller did not authorise the client", answerOf(res));
  }
}

/**
 * A session of the controller's web API (v2) as an administrator, for the site's settings: the
 * hotspot operator API has no call for them. `POST /<omadacId>/api/v2/login` answers the CSRF
 * token (sent as `Csrf-Token` and `?token=`) with the session cookie; `GET /<omadacId>/api/v2/sites`
 * lists the sites by `id` and `name`. Described by omada-api-toolkit's API reference
 * (https://github.com/spectator81-png/omada-api-toolkit/blob/main/API-REFERENCE.md) and TP-Link's
 * Open API guide (`PortalAccessControlOpenApiVO`); checked on no hardware.
 */
interface AdminSession {
  jar: CookieJar;
  token: string;
  siteId: string;
}

async function adminSession(c: Call): Promise<AdminSession> {
  const creds = c.access.credentials;
  if (!("username" in creds)) throw new ControllerError("refused", "an Omada controller needs a username and password");
  if (!c.session.controllerId) await login(c);
  const id = c.session.controllerId;
  const res = await send(c, "POST", `/${id}/api/v2/login`, { username: creds.username, password: creds.password });
  const body = jsonOf(res);
  if (res.status !== 200 || body?.errorCode !== 0 || typeof body?.result?.token !== "string") {
    throw new ControllerError("refused", "the account lets guests in, but cannot sign in as a site administrator (needed to change the site's Pre-Authentication Access)", answerOf(res));
  }
  const jar = new CookieJar();
  jar.take(res.headers);
  const token = body.result.token as string;
  const sites = await send(c, "GET", `/${id}/api/v2/sites?currentPage=1&currentPageSize=1000&token=${encodeURIComponent(token)}`, undefined, { ...jar.header(), "csrf-token": token });
  const list: { id?: unknown; name?: unknown }[] = jsonOf(sites)?.result?.data ?? [];
  if (sites.status !== 200 || jsonOf(sites)?.errorCode !== 0) throw new ControllerError("rejected", "the controller did not list its sites", answerOf(sites));
  const wanted = c.access.site.toLowerCase();
  const site = list.find((s) => typeof s.name === "string" && s.name.toLowerCase() === wanted);
  if (!site || typeof site.id !== "string" || !CONTROLLER_ID_RE.test(site.id)) throw new ControllerError("site", `the controller has no site "${c.access.site}"`, answerOf(sites));
  return { jar, token, siteId: site.id };
}

/** Test connection: the controller's id, the hotspot operator's login (what each guest's grant needs), then the site as an administrator. Throws ControllerError. */
export async function omadaCheck(c: Call): Promise<string> {
  c.session.loggedIn = false;
  await login(c);
  await adminSession(c);
  return `signed in (controller ${c.session.controllerId}), site "${c.access.site}" found`;
}

interface PreAuthPolicy {
  type?: number;
  url?: string;
  [k: string]: unknown;
}

/**
 * Sets the portal's Pre-Authentication Access (`/<omadacId>/api/v2/sites/<siteId>/setting/accessControl`,
 * read with GET, written with PATCH and the whole object): URL entries (`type` 2) for `hosts`, the
 * ones this service pushed before (`previous`) removed, the venue's own entries (IP ranges, other
 * URLs) and the authentication-free clients kept. Throws ControllerError.
 */
export async function omadaSetAllowances(c: Call, hosts: readonly string[], previous: readonly string[]): Promise<void> {
  const admin = await adminSession(c);
  const path = `/${c.session.controllerId}/api/v2/sites/${admin.siteId}/setting/accessControl?token=${encodeURIComponent(admin.token)}`;
  const headers = { ...admin.jar.header(), "csrf-token": admin.token };
  const read = await send(c, "GET", path, undefined, headers);
  const current = jsonOf(read)?.result;
  if (read.status !== 200 || jsonOf(read)?.errorCode !== 0 || typeof current !== "object" || current === null) {
    throw new ControllerError("rejected", "the controller did not answer the site's Pre-Authentication Access", answerOf(read));
  }
  const own = new Set([...previous, ...hosts].map((h) => h.toLowerCase()));
  const kept = ((current.preAuthAccessPolicies ?? []) as PreAuthPolicy[]).filter((p) => !(p.type === 2 && typeof p.url === "string" && own.has(p.url.toLowerCase())));
  const policies = [...kept.map(({ idInt: _id, ...p }) => p), ...hosts.map((url) => ({ type: 2, url }))];
  const body = {
    preAuthAccessEnable: policies.length > 0,
    preAuthAccessPolicies: policies,
    freeAuthClientEnable: current.freeAuthClientEnable === true,
    freeAuthClientPolicies: current.freeAuthClientPolicies ?? [],
  };
  const res = await send(c, "PATCH", path, body, headers);
  if (res.status !== 200 || jsonOf(res)?.errorCode !== 0) throw new ControllerError("rejected", "the controller did not take the Pre-Authentication Access", answerOf(res));
}
