/**
 * A guest's login, whatever the method: check the page state still points at a live location and
 * a campaign offering that method, record the login (recordLogin: guest, login, aggregates), and
 * hand the guest back to the gateway that sent them, or to the campaign's redirect_url.
 */
import { createHash } from "node:crypto";
import type { Config } from "../config.js";
import { isHttpUrl } from "../http/validation.js";
import type { CampaignPayload, LoginMethod } from "../modules/campaigns/campaign-payload.js";
import type { CampaignRow } from "../modules/campaigns/campaigns.repository.js";
import { findCampaign } from "../modules/campaigns/campaigns.service.js";
import type { Ctx } from "../modules/context.js";
import { type GuestProfileInput, type LoginConsent, recordLogin } from "../modules/guests/guest-activity.service.js";
import { type LoginType, loginTypeOfMethod } from "../modules/guests/login-types.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import type { VoucherLimits } from "../modules/vouchers/vouchers.service.js";
import { findLiveLocation, loadOptions } from "../modules/locations/locations.service.js";
import { recordGrant } from "../modules/sessions/captive-status.service.js";
import { newCredential } from "../radius/portal-credentials.js";
import type { RadiusCtx } from "../radius/radius.repository.js";
import { type ControllerGrants, grantLimits } from "./controller-grants.js";
import { coovaLogonUrl } from "./gateways/coova.js";
import { merakiGrantUrl } from "./gateways/meraki.js";
import { isPostLogin, postLoginFields, postLoginLanding } from "./gateways/post-login.js";
import { openNdsHandoff } from "./opennds/opennds.service.js";
import { type PagePayload, pagePayload } from "./page-payload.js";
import { portalErrors } from "./portal-errors.js";
import type { PageState } from "./portal-state.js";

/** Meraki grant length when the location sets no session time limit: one day. */
export const DEFAULT_GRANT_SECONDS = 86_400;

export interface LoginContext {
  state: PageState;
  location: LocationRow;
  campaign: CampaignRow;
  payload: PagePayload;
}

/** Whether the method can be used on this service: social networks and SMS need their configuration. */
export function methodAvailable(config: Readonly<Config>, payload: CampaignPayload, method: LoginMethod): boolean {
  if (!payload.login_options[method]) return false;
  if (method === "sms") return config.twilio !== undefined;
  if (method === "facebook" || method === "twitter" || method === "instagram" || method === "linkedin") {
    return config.oauth[method] !== undefined;
  }
  return true;
}

export async function loadLoginContext(ctx: Ctx, config: Readonly<Config>, state: PageState, method: LoginMethod): Promise<LoginContext> {
  if (state.loc === null) throw portalErrors.notOnWifi();
  const [location, campaign] = await Promise.all([findLiveLocation(ctx, state.loc), findCampaign(ctx, state.cmp)]);
  if (!location || !campaign) throw portalErrors.pageNotFound();
  const payload = pagePayload(campaign, location.name);
  if (!methodAvailable(config, payload, method)) throw portalErrors.methodUnavailable();
  return { state, location, campaign, payload };
}

/** Where the guest goes after the login. */
export type Handoff =
  | { kind: "redirect"; url: string }
  | { kind: "connected"; continueUrl: string }
  /**
   * The guest is online; the "You are online" page then takes the browser on to `url` by itself.
   * Not a redirect of the login post: browsers check every redirect of a form post against the
   * page's CSP form-action, so a campaign's redirect_url that redirects again (http to https, a bare
   * domain to www.) would be blocked half-way.
   */
  | { kind: "landing"; url: string }
  /** The browser posts these fields to the gateway's login URL (a page with a self-submitting form). */
  | {
      kind: "post";
      url: string;
      fields: [string, string][];
      /** Where the gateway then redirects the guest (browsers check that redirect against the page's form-action). */
      landing: string;
    };

export interface LoginInput {
  method: LoginMethod;
  /** Identity within the login type (network user id, e-mail, phone), or "" for anonymous methods. */
  identity: string;
  profile: GuestProfileInput;
  userAgent: string;
  /** The guest's address as the portal sees it: the RFC 8908 API recognises the device by it. */
  clientIp?: string;
  /** A returning guest (device cookie): recorded as this login type and identity, i.e. the same guest. */
  as?: { loginType: string; identity: string };
  /** Told the guest once the login is recorded (the portal sets the device cookie with it). */
  onGuest?: (guestId: number) => void;
  /** The voucher the guest logged in with, and what it grants now. */
  voucher?: VoucherLimits;
  /** What the guest ticked on the page; undefined: the method's form had no consent boxes. */
  consent?: { termsAccepted: boolean; marketingOptIn: boolean };
  /** The language the page was shown in: the terms and marketing texts the guest saw are that language's, and the guest's locale when the login gives none. */
  language?: string;
}

/** A text's version as logins record it: 16 hex digits of its SHA-256 ("" for no text). */
export function textVersion(text: string): string {
  return text === "" ? "" : createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/**
 * What the guest agreed to: the versions of the texts they saw, which are those of the page's
 * language when the campaign has them in it (a translation is a text, and a version, of its own).
 */
function loginConsent(payload: CampaignPayload, choice: LoginInput["consent"], language: string | undefined): LoginConsent {
  const marketingAsked = payload.consent.marketing_opt_in && choice !== undefined;
  const own = language && language !== payload.default_language ? payload.translations[language] : undefined;
  return {
    termsAccepted: choice?.termsAccepted ?? false,
    termsVersion: choice?.termsAccepted ? textVersion(own?.custom_terms || payload.custom_terms) : "",
    marketingAsked,
    marketingOptIn: marketingAsked && (choice?.marketingOptIn ?? false),
    marketingVersion: marketingAsked ? textVersion(own?.marketing_text || payload.consent.marketing_text) : "",
  };
}

/** Anonymous logins (click-through, a form without e-mail or phone) are one guest per device. */
function anonymousIdentity(state: PageState): string {
  return state.mac ? `mac:${state.mac}` : `session:${state.sid}`;
}

export async function completeLogin(
  app: RadiusCtx & { readonly controllers: ControllerGrants },
  config: Readonly<Config>,
  ctx: LoginContext,
  input: LoginInput,
): Promise<Handoff> {
  const { state, location, campaign, payload } = ctx;
  const gw = state.gw;
  // Controller families: the guest is let in before the login is recorded, so that a guest who
  // retries after a controller failure is not counted twice.
  const voucher = input.voucher;
  const granted = gw?.kind === "unifi" || gw?.kind === "omada" ? await app.controllers.grant(app, location, state.mac, gw, voucher) : undefined;
  // RUCKUS SmartZone / RUCKUS One: the controller is called after the login is stored (it asks RADIUS
  // with the credential stored with it); a location without one is refused before anything is stored.
  const ruckus = gw?.kind === "ruckus-nbi" ? await app.controllers.ruckusController(app, location) : undefined;
  // A gateway that logs the guest on with RADIUS gets a one-time credential, stored with the login.
  const issued =
    gw?.kind === "coova" || gw?.kind === "ruckus-nbi" || isPostLogin(gw)
      ? newCredential({ locationId: location.id, deviceId: state.dev, clientMac: state.mac, ttlSeconds: config.radius.credentialTtlSeconds })
      : undefined;
  // RADIUS finds the voucher's limits through the credential.
  if (issued && voucher) issued.row.voucher_id = voucher.voucherId;
  const { guestId } = await recordLogin(app.db, {
    accountId: location.account_id,
    locationId: location.id,
    timezone: location.timezone,
    campaignId: campaign.id,
    deviceId: state.dev,
    loginType: (input.as?.loginType as LoginType | undefined) ?? loginTypeOfMethod(input.method),
    identity: input.as?.identity ?? (input.identity || anonymousIdentity(state)),
    profile: input.language && !input.profile.locale ? { ...input.profile, locale: input.language } : input.profile,
    clientMac: state.mac,
    userAgent: input.userAgent,
    credential: issued?.row,
    consent: loginConsent(payload, input.consent, input.language),
    voucherId: voucher?.voucherId ?? null,
  });
  input.onGuest?.(guestId);
  const redirectUrl = isHttpUrl(payload.redirect_url) ? payload.redirect_url : "";
  if (gw?.kind === "coova" && issued) {
    return { kind: "redirect", url: coovaLogonUrl(gw, issued.credential, config.coovaUamSecret, redirectUrl || gw.userurl) };
  }
  const remember = (seconds: number) =>
    input.clientIp ? recordGrant(app, { locationId: location.id, clientIp: input.clientIp, clientMac: state.mac, seconds }) : undefined;
  if (granted !== undefined) {
    await remember(granted);
    return redirectUrl ? { kind: "landing", url: redirectUrl } : { kind: "connected", continueUrl: "" };
  }
  if (gw?.kind === "meraki") {
    const options = await loadOptions(app, location.id);
    const duration = voucher ? voucher.secondsLeft : options.session_time_limit > 0 ? options.session_time_limit : DEFAULT_GRANT_SECONDS;
    await remember(duration);
    return { kind: "redirect", url: merakiGrantUrl(gw, redirectUrl || gw.cont, duration) };
  }
  if (gw?.kind === "ruckus-nbi" && ruckus && issued) {
    // The controller asks RADIUS with the credential stored above, then says whether the guest is in.
    await app.controllers.ruckusLogin(ruckus, location, gw, issued.credential);
    // The guest's address, from the redirect's uip: the RFC 8908 API knows the device is in before
    // the controller's first accounting packet arrives.
    const ip = await app.controllers.ruckusDecrypt(app, location, gw, "ip", ruckus);
    if (ip) {
      const options = await loadOptions(app, location.id);
      await recordGrant(app, { locationId: location.id, clientIp: ip, clientMac: state.mac, seconds: grantLimits(options, voucher).seconds });
    }
    return redirectUrl ? { kind: "landing", url: redirectUrl } : { kind: "connected", continueUrl: "" };
  }
  if (isPostLogin(gw) && issued) {
    return { kind: "post", url: gw.login, fields: postLoginFields(gw, issued.credential, redirectUrl), landing: postLoginLanding(gw, redirectUrl) };
  }
  if (gw?.kind === "opennds") {
    const out = await openNdsHandoff(app, config, { gw, location, deviceId: state.dev, guestId, redir: redirectUrl || gw.originurl });
    // No RADIUS session tells the RFC 8908 API this guest is online: the grant does.
    await remember(out.seconds);
    return "url" in out ? { kind: "redirect", url: out.url } : { kind: "connected", continueUrl: redirectUrl || gw.originurl };
  }
  return redirectUrl ? { kind: "redirect", url: redirectUrl } : { kind: "connected", continueUrl: "" };
}
