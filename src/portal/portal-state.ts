/**
 * The page state: everything a login POST needs from the page the guest saw (location,
 * campaign, access point, client MAC, the gateway's vetted hand-off parameters), signed and sent
 * as a hidden field. It carries the guest's session id, which must match the session cookie: a
 * state taken from another browser is refused, so the field doubles as the CSRF token.
 */
import { clearCookie, cookieOf, setCookie } from "../http/cookies.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { GatewayState } from "../gateways/gateway.js";
import type { PortalSigner } from "./portal-signer.js";
import { randomToken } from "./portal-signer.js";

export const SESSION_COOKIE = "gwp_sid";
/** A guest may read the terms for a while; an hour is plenty and bounds replay. */
export const PAGE_STATE_TTL_SECONDS = 3600;

export interface PageState {
  v: 1;
  /** Session id, equal to the session cookie. */
  sid: string;
  /** Expiry, epoch seconds. */
  exp: number;
  /** Location the login is recorded at; null on a campaign page opened outside a gateway (preview). */
  loc: number | null;
  cmp: number;
  dev: number | null;
  /** Client MAC as the gateway reported it (canonical), or "". */
  mac: string;
  gw: GatewayState | null;
  /** SMS step only: the number the code went to. */
  phone?: string;
  /** SMS step only: what the guest ticked on the number's form (terms, marketing), 1 or 0. */
  consent?: [number, number];
  /** The language the page was shown in (a shipped language tag): the pages after it keep it. */
  lang?: string;
}

export function sealPageState(signer: PortalSigner, s: Omit<PageState, "v" | "exp">, now = Date.now()): string {
  const state: PageState = { v: 1, exp: Math.floor(now / 1000) + PAGE_STATE_TTL_SECONDS, ...s };
  return signer.seal("page-state", state);
}

/** The state of a POST, or undefined when forged, expired, or not this browser's. */
export function openPageState(signer: PortalSigner, token: unknown, sessionId: string | undefined, now = Date.now()): PageState | undefined {
  const s = signer.open<PageState>("page-state", token);
  if (s?.v !== 1 || typeof s.exp !== "number" || s.exp < now / 1000) return undefined;
  if (!sessionId || s.sid !== sessionId) return undefined;
  return s;
}

function secureCookies(publicUrl: string): boolean {
  return publicUrl.startsWith("https://");
}

/** The browser's portal session id, set as a cookie when it has none yet. */
export function ensureSession(request: FastifyRequest, reply: FastifyReply, publicUrl: string): string {
  const existing = cookieOf(request, SESSION_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return existing;
  const sid = randomToken(16);
  // HttpOnly, SameSite=Lax (cookies.ts); a session cookie: gone when the browser closes.
  setCookie(reply, SESSION_COOKIE, sid, { path: "/portal/", secure: secureCookies(publicUrl) });
  return sid;
}

export const OAUTH_COOKIE = "gwp_oauth";
export const OAUTH_COOKIE_TTL_SECONDS = 600;

/** Held in an HttpOnly signed cookie while the guest is at the provider: never in a URL. */
export interface OAuthPending {
  p: string;
  /** The `state` sent to the provider. */
  n: string;
  /** PKCE code_verifier, or "". */
  v: string;
  /** The page state the guest started from. */
  s: string;
  /** What the guest ticked before going to the provider (terms, marketing), 1 or 0. */
  c?: [number, number];
  exp: number;
}

export function setOAuthCookie(reply: FastifyReply, signer: PortalSigner, publicUrl: string, pending: Omit<OAuthPending, "exp">): void {
  const value = signer.seal("oauth", { ...pending, exp: Math.floor(Date.now() / 1000) + OAUTH_COOKIE_TTL_SECONDS });
  setCookie(reply, OAUTH_COOKIE, value, { path: "/portal/oauth/", secure: secureCookies(publicUrl), maxAge: OAUTH_COOKIE_TTL_SECONDS });
}

export function takeOAuthCookie(request: FastifyRequest, reply: FastifyReply, signer: PortalSigner): OAuthPending | undefined {
  const raw = cookieOf(request, OAUTH_COOKIE);
  clearCookie(reply, OAUTH_COOKIE, "/portal/oauth/");
  const p = signer.open<OAuthPending>("oauth", raw);
  return p && p.exp >= Date.now() / 1000 ? p : undefined;
}
