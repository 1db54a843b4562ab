/**
 * Stand-in controllers, as local HTTPS servers with a self-signed certificate made for the test
 * (openssl): a UniFi Network controller (classic: /api/login, cookie unifises, csrf_token; UniFi
 * OS: /api/auth/login, TOKEN cookie, X-CSRF-Token, /proxy/network, X-API-KEY) and a TP-Link Omada
 * controller (/api/info, hotspot login, extPortal/auth with Csrf-Token). They speak the protocols
 * as the vendors document them and record every call.
 *
 * Besides the grant, what Test connection and the walled-garden push call:
 * - UniFi: `GET /api/s/<site>/self`, `GET /api/s/<site>/get/setting/guest_access` and
 *   `POST /api/s/<site>/set/setting/guest_access` with `allowed_subnet_<n>` (Art-of-WiFi's
 *   UniFi-API-client, `list_self` and `set_guestlogin_settings_base`:
 *   https://github.com/Art-of-WiFi/UniFi-API-client/blob/master/src/Client.php); another site
 *   answers 400 `api.err.NoSiteContext`.
 * - Omada: the administrator's web API v2, `POST /<omadacId>/api/v2/login`, `GET .../api/v2/sites`
 *   and `GET`/`PATCH .../api/v2/sites/<siteId>/setting/accessControl` (`preAuthAccessEnable`,
 *   `preAuthAccessPolicies` with `type` 2 URL entries; omada-api-toolkit's API reference:
 *   https://github.com/spectator81-png/omada-api-toolkit/blob/main/API-REFERENCE.md, and TP-Link's
 *   Open API guide, `PortalAccessControlOpenApiVO`).
 */
import { execFileSync } from "node:child_process";
import { X509Certificate, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Server, createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificate {
  key: string;
  cert: string;
  /** SHA-256 of the certificate, upper-case hex with colons. */
  fingerprint: string;
}

export function makeCertificate(cn = "controller.test"): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), "gw-cert-"));
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
      "-subj", `/CN=${cn}`, "-addext", "subjectAltName=IP:127.0.0.1",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    const cert = readFileSync(join(dir, "cert.pem"), "utf8");
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert, fingerprint: new X509Certificate(cert).fingerprint256 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ControllerCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: any;
}

export interface ControllerStandIn {
  url: string;
  calls: ControllerCall[];
  /** Commands that let a client in (stamgr, extPortal/auth), in order. */
  grants(): any[];
  /** Forget every session (the controller restarted): the next command gets 401. */
  expireSessions(): void;
  close(): Promise<void>;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string | string[]> };
type Handler = (call: ControllerCall, cookies: Map<string, string>) => Reply;

async function serve(cert: TestCertificate, handler: Handler, grantPath: RegExp): Promise<ControllerStandIn & { sessions: Set<string> }> {
  const calls: ControllerCall[] = [];
  const sessions = new Set<string>();
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const u = new URL(req.url ?? "/", "https://x");
      const call: ControllerCall = { method: req.method ?? "", path: u.pathname, query: u.searchParams, headers: req.headers, body };
      calls.push(call);
      const cookies = new Map<string, string>();
      for (const part of (req.headers.cookie ?? "").split(";")) {
        const [k, ...v] = part.trim().split("=");
        if (k) cookies.set(k, v.join("="));
      }
      const out = handler(call, cookies);
      res.writeHead(out.status, { "content-type": "application/json", ...out.headers });
      res.end(out.body === undefined ? "" : JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    sessions,
    grants: () => calls.filter((c) => grantPath.test(c.path) && c.method === "POST").map((c) => c.body),
    expireSessions: () => sessions.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface UnifiOptions {
  flavour: "classic" | "os";
  username: string;
  password: string;
  site: string;
  apiKey?: string;
}

/** The site's guest_access setting as the stand-in holds it (an entry of the venue's own to start with). */
export type GuestAccess = Record<string, unknown>;

/** A UniFi Network controller: the grants that passed authentication are the accepted stamgr calls. */
export async function startUnifiController(cert: TestCertificate, o: UnifiOptions): Promise<ControllerStandIn & { accepted: any[]; guestAccess: GuestAccess }> {
  const accepted: any[] = [];
  const guestAccess: GuestAccess = { _id: "5f0c0a1b2c3d4e5f60718293", key: "guest_access", site_id: "5f0c0a1b2c3d4e5f60718200", portal_enabled: true, allowed_subnet_1: "10.20.0.0/16" };
  const csrf = new Map<string, string>();
  const prefix = o.flavour === "os" ? "/proxy/network" : "";
  const loginPath = o.flavour === "os" ? "/api/auth/login" : "/api/login";
  const cookieName = o.flavour === "os" ? "TOKEN" : "unifises";
  const ok = (data: unknown[] = []) => ({ status: 200, body: { meta: { rc: "ok" }, data } });
  const loginRequired = { status: 401, body: { meta: { rc: "error", msg: "api.err.LoginRequired" } } };
  let standIn: ControllerStandIn & { sessions: Set<string> };
  standIn = await serve(
    cert,
    (call, cookies): Reply => {
      if (call.method === "GET" && call.path === "/") {
        return o.flavour === "os" ? { status: 200, headers: { "content-type": "text/html" } } : { status: 302, headers: { location: "/manage" } };
      }
      if (call.method === "POST" && call.path === loginPath) {
        if (call.body?.username !== o.username || call.body?.password !== o.password) {
          return o.flavour === "os" ? { status: 401, body: { code: "AUTHENTICATION_FAILED_INVALID_CREDENTIALS" } } : { status: 400, body: { meta: { rc: "error", msg: "api.err.Invalid" } } };
        }
        const session = randomBytes(16).toString("hex");
        const token = randomBytes(12).toString("hex");
        standIn.sessions.add(session);
        csrf.set(session, token);
        if (o.flavour === "os") return { ...ok(), headers: { "set-cookie": [`TOKEN=${session}; path=/; secure; httponly`], "x-csrf-token": token } };
        return { ...ok(), headers: { "set-cookie": [`unifises=${session}; Path=/; Secure; HttpOnly`, `csrf_token=${token}; Path=/; Secure`] } };
      }
      const byKey = o.apiKey !== undefined && call.headers["x-api-key"] === o.apiKey;
      const session = cookies.get(cookieName) ?? "";
      const byCookie = standIn.sessions.has(session) && call.headers["x-csrf-token"] === csrf.get(session);
      const signedIn = byKey || (standIn.sessions.has(session) && (call.method === "GET" || byCookie));
      if (call.method === "GET" && call.path === `${prefix}/api/s/${o.site}/self`) {
        return signedIn ? ok([{ site_name: o.site, site_role: "admin" }]) : loginRequired;
      }
      if (call.method === "GET" && call.path === `${prefix}/api/s/${o.site}/get/setting/guest_access`) {
        return signedIn ? ok([guestAccess]) : loginRequired;
      }
      if (call.method === "POST" && call.path === `${prefix}/api/s/${o.site}/set/setting/guest_access`) {
        if (!signedIn) return loginRequired;
        for (const [k, v] of Object.entries(call.body ?? {})) {
          if (!/^allowed_subnet_\d+$/.test(k) || typeof v !== "string") return { status: 400, body: { meta: { rc: "error", msg: "api.err.InvalidPayload" } } };
          if (v === "") delete guestAccess[k];
          else guestAccess[k] = v;
        }
        return ok([guestAccess]);
      }
      if (/^(\/proxy\/network)?\/api\/s\/[^/]+\/(self|get\/setting\/guest_access|set\/setting\/guest_access)$/.test(call.path)) {
        return signedIn ? { status: 400, body: { meta: { rc: "error", msg: "api.err.NoSiteContext" } } } : loginRequired;
      }
      if (call.method === "POST" && call.path === `${prefix}/api/s/${o.site}/cmd/stamgr`) {
        if (!byKey && !byCookie) return loginRequired;
        if (call.body?.cmd !== "authorize-guest") return { status: 400, body: { meta: { rc: "error", msg: "api.err.UnknownCommand" } } };
        accepted.push(call.body);
        return ok([{ mac: call.body.mac, authorized_by: "api" }]);
      }
      if (call.method === "POST" && /\/api\/s\/[^/]+\/cmd\/stamgr$/.test(call.path)) return { status: 400, body: { meta: { rc: "error", msg: "api.err.NoSiteContext" } } };
      return { status: 404, body: { meta: { rc: "error", msg: "api.err.NotFound" } } };
    },
    /cmd\/stamgr$/,
  );
  return Object.assign(standIn, { accepted, guestAccess });
}

export interface OmadaOptions {
  username: string;
  password: string;
  controllerId: string;
  /** The site administrator's login (web API v2); default: the same as the hotspot operator's. */
  admin?: { username: string; password: string };
  /** Sites by name -> id; default: Default. */
  sites?: Record<string, string>;
}

/** A site's portal access control as the stand-in holds it. */
export interface OmadaAccessControl {
  preAuthAccessEnable: boolean;
  preAuthAccessPolicies: Record<string, unknown>[];
  freeAuthClientEnable: boolean;
  freeAuthClientPolicies: Record<string, unknown>[];
}

/** A TP-Link Omada controller (v5 hotspot operator API). */
export async function startOmadaController(
  cert: TestCertificate,
  o: OmadaOptions,
): Promise<ControllerStandIn & { accepted: any[]; accessControl: Map<string, OmadaAccessControl> }> {
  const accepted: any[] = [];
  const tokens = new Map<string, string>();
  const adminTokens = new Map<string, string>();
  const admin = o.admin ?? { username: o.username, password: o.password };
  const sites = o.sites ?? { Default: "6aa3913c3ee1605f71ac35a1" };
  const accessControl = new Map<string, OmadaAccessControl>(
    Object.values(sites).map((id) => [id, { preAuthAccessEnable: true, preAuthAccessPolicies: [{ idInt: 1, type: 1, ip: "10.20.0.0", subnetMask: 16 }], freeAuthClientEnable: false, freeAuthClientPolicies: [] }]),
  );
  let standIn: ControllerStandIn & { sessions: Set<string> };
  standIn = await serve(
    cert,
    (call, cookies): Reply => {
      if (call.method === "GET" && call.path === "/api/info") {
        return { status: 200, body: { errorCode: 0, msg: "Success.", result: { controllerVer: "5.13.30", apiVer: "3", omadacId: o.controllerId } } };
      }
      if (call.method === "POST" && call.path === `/${o.controllerId}/api/v2/hotspot/login`) {
        if (call.body?.name !== o.username || call.body?.password !== o.password) return { status: 200, body: { errorCode: -30109, msg: "Invalid username or password." } };
        const session = randomBytes(16).toString("hex");
        const token = randomBytes(16).toString("hex");
        standIn.sessions.add(session);
        tokens.set(session, token);
        return { status: 200, body: { errorCode: 0, msg: "Hotspot log in successfully.", result: { token } }, headers: { "set-cookie": [`TPOMADA_SESSIONID=${session}; Path=/; Secure; HttpOnly`] } };
      }
      if (call.method === "POST" && call.path === `/${o.controllerId}/api/v2/login`) {
        if (call.body?.username !== admin.username || call.body?.password !== admin.password) return { status: 200, body: { errorCode: -30109, msg: "Invalid username or password." } };
        const session = randomBytes(16).toString("hex");
        const token = randomBytes(16).toString("hex");
        adminTokens.set(session, token);
        return { status: 200, body: { errorCode: 0, msg: "Log in successfully.", result: { token } }, headers: { "set-cookie": [`TPOMADA_SESSIONID=${session}; Path=/; Secure; HttpOnly`] } };
      }
      const adminSession = cookies.get("TPOMADA_SESSIONID") ?? "";
      const isAdmin = adminTokens.has(adminSession) && call.headers["csrf-token"] === adminTokens.get(adminSession) && call.query.get("token") === adminTokens.get(adminSession);
      if (call.method === "GET" && call.path === `/${o.controllerId}/api/v2/sites`) {
        if (!isAdmin) return { status: 200, body: { errorCode: -1200, msg: "Login required." } };
        return { status: 200, body: { errorCode: 0, msg: "Success.", result: { totalRows: Object.keys(sites).length, data: Object.entries(sites).map(([name, id]) => ({ id, name })) } } };
      }
      const acl = new RegExp(`^/${o.controllerId}/api/v2/sites/([^/]+)/setting/accessControl$`).exec(call.path);
      if (acl) {
        if (!isAdmin) return { status: 200, body: { errorCode: -1200, msg: "Login required." } };
        const current = accessControl.get(acl[1]);
        if (!current) return { status: 200, body: { errorCode: -1505, msg: "The current user does not have permissions to access this site." } };
        if (call.method === "GET") return { status: 200, body: { errorCode: 0, msg: "Success.", result: current } };
        if (call.method === "PATCH") {
          const b = call.body;
          const policyOk = (p: any) => (p?.type === 2 && typeof p.url === "string" && p.url !== "") || (p?.type === 1 && typeof p.ip === "string");
          if (typeof b?.preAuthAccessEnable !== "boolean" || !Array.isArray(b.preAuthAccessPolicies) || !b.preAuthAccessPolicies.every(policyOk)) {
            return { status: 200, body: { errorCode: -1001, msg: "Invalid request parameters." } };
          }
          accessControl.set(acl[1], { ...current, ...b, preAuthAccessPolicies: b.preAuthAccessPolicies.map((p: any, i: number) => ({ idInt: i + 1, ...p })) });
          return { status: 200, body: { errorCode: 0, msg: "Success." } };
        }
      }
      if (call.method === "POST" && call.path === `/${o.controllerId}/api/v2/hotspot/extPortal/auth`) {
        const session = cookies.get("TPOMADA_SESSIONID") ?? "";
        if (!standIn.sessions.has(session) || call.headers["csrf-token"] !== tokens.get(session)) return { status: 200, body: { errorCode: -1200, msg: "Login required." } };
        accepted.push(call.body);
        return { status: 200, body: { errorCode: 0, msg: "Success." } };
      }
      return { status: 404, body: { errorCode: -1, msg: "Not found." } };
    },
    /extPortal\/auth$/,
  );
  return Object.assign(standIn, { accepted, accessControl });
}
