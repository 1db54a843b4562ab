/**
 * Cisco Meraki: click-through (the browser to Meraki's `base_grant_url` with the grant's duration)
 * and the sign-on splash (the browser posts a one-time credential to Meraki's cloud, which asks RADIUS).
 * Both hand the guest only to Meraki's cloud (`*.network-auth.com`, https).
 */
import type { MerakiSignOnState, MerakiState } from "../gateway-types.js";
import { type Handoff, postLoginHandoff } from "../handoff.js";
import { merakiSignOnFields, parseMerakiSignOn } from "./meraki-signon.js";
import { merakiGrantUrl, parseMeraki } from "./meraki.js";

function merakiCloud(host: string): boolean {
  return host === "network-auth.com" || host.endsWith(".network-auth.com");
}

export const merakiHandoff: Handoff<MerakiState> = {
  kind: "meraki",
  detects: (q) => q.base_grant_url !== undefined,
  parse: (input) => parseMeraki(input.query),
  targetAllowed: (state, host) => state.grant.startsWith("https://") && merakiCloud(host),
  // Meraki's grant then redirects to continue_url (redirect_url, or user_continue_url).
  formTargets: (gw) => [gw.grant, gw.cont],
  credential: false,
  async complete(step) {
    const duration = (await step.grant()).grantSeconds;
    await step.remember(duration);
    return { kind: "redirect", url: merakiGrantUrl(step.gw, step.redirectUrl || step.gw.cont, duration) };
  },
};

export const merakiSignOnHandoff: Handoff<MerakiSignOnState> = postLoginHandoff<MerakiSignOnState>({
  kind: "meraki-signon",
  detects: (q) => q.login_url !== undefined,
  parse: (input) => parseMerakiSignOn(input.query),
  targetAllowed: (state, host) => state.login.startsWith("https://") && merakiCloud(host),
  fields: (gw, credential, next) => merakiSignOnFields(gw, credential, next),
  landing: (gw, redirectUrl) => redirectUrl || gw.cont,
});
