/**
 * The families whose hand-off is a form the browser posts to the gateway's login URL, with a
 * one-time credential that the gateway then brings to our RADIUS server: which they are, and the
 * fields each posts.
 */
import { arubaLoginFields } from "./aruba.js";
import { cambiumLoginFields } from "./cambium.js";
import type { GatewayState } from "./gateway-types.js";
import { merakiSignOnFields } from "./meraki-signon.js";
import { mikrotikLoginFields } from "./mikrotik.js";
import { ruckusLoginFields } from "./ruckus.js";

export type PostLoginState = Extract<GatewayState, { kind: "mikrotik" | "meraki-signon" | "aruba" | "ruckus" | "cambium" }>;

export function isPostLogin(gw: GatewayState | null): gw is PostLoginState {
  return gw !== null && (gw.kind === "mikrotik" || gw.kind === "meraki-signon" || gw.kind === "aruba" || gw.kind === "ruckus" || gw.kind === "cambium");
}

/**
 * Where the gateway sends the guest once logged in: the campaign's redirect_url when it passes one
 * on, else the page the guest first asked for (as the gateway reported it), or "" when unknown.
 */
export function postLoginLanding(gw: PostLoginState, redirectUrl: string): string {
  switch (gw.kind) {
    case "mikrotik":
      return redirectUrl || gw.orig;
    case "meraki-signon":
      return redirectUrl || gw.cont;
    case "aruba":
    case "ruckus":
      return redirectUrl || gw.url;
    case "cambium":
      return gw.orig;
  }
}

/** The posted fields; `next` is where the guest goes afterwards (redirect_url, or "" for the gateway's own). */
export function postLoginFields(gw: PostLoginState, credential: { username: string; password: string }, next: string): [string, string][] {
  switch (gw.kind) {
    case "mikrotik":
      return mikrotikLoginFields(gw, credential, next || gw.orig);
    case "meraki-signon":
      return merakiSignOnFields(gw, credential, next);
    case "aruba":
      return arubaLoginFields(gw, credential, next);
    case "ruckus":
      return ruckusLoginFields(gw, credential, next);
    case "cambium":
      return cambiumLoginFields(gw, credential);
  }
}
