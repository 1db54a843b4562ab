/**
 * A guest's login, whatever the method: check the page state still points at a live location and
 * a campaign offering that method, record the login (recordLogin: guest, login, aggregates), and
 * hand the guest back to the gateway that sent them, or to the campaign's redirect_url.
 */
import type { Config } from "../config.js";
import { isHttpUrl } from "../http/validation.js";
import type { CampaignPayload, LoginMethod } from "../modules/campaigns/campaign-payload.js";
import type { CampaignRow } from "../modules/campaigns/campaigns.repository.js";
import { findCampaign } from "../modules/campaigns/campaigns.service.js";
import { textVersion } from "../modules/campaigns/consent-texts.js";
import type { Ctx } from "../modules/context.js";
import { type GuestProfileInput, type LoginConsent, recordLogin } from "../modules/guests/guest-activity.service.js";
import { type LoginType, loginTypeOfMethod } from "../modules/guests/login-types.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import type { VoucherLimits } from "../modules/vouchers/vouchers.service.js";
import { findLiveLocation, loadOptions } from "../modules/locations/locations.service.js";
import { recordGrant } from "../modules/sessions/captive-status.service.js";
import { credentialWithLogin, newCredential } from "../radius/portal-credentials.js";
import type { RadiusCtx } from "../radius/radius.repository.js";
import { type Grant, grantFor, grantSettings } from "../gateways/grant-policy.js";
import type { ControllerGrants } from "./controller-grants.js";
import type { HandoffResult } from "../gateways/handoff.js";
import { handoffOf } from "../gateways/registry.js";
import { type PagePayload, pagePayload } from "./page-payload.js";
import type { ConsentChoice } from "./portal-forms.js";
import { portalErrors } from "./portal-errors.js";
import type { PageState } from "./portal-state.js";

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

/** Where the guest goes after the login (each family decides: src/gateways/handoff.ts). */
export type Handoff = HandoffResult;

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
  consent?: ConsentChoice;
  /** The language the page was shown in: the terms and marketing texts the guest saw are that language's, and the guest's locale when the login gives none. */
  language?: string;
}

export { textVersion };

/**
 * What the page showed and the guest ticked; whether that opts the guest in is marketingDecision's
 * (modules/guests). The versions are those of the texts the guest saw: the page language's when the
 * campaign has them in it (a translation is a text, and a version, of its own).
 */
function loginConsent(payload: CampaignPayload, choice: LoginInput["consent"], language: string | undefined): LoginConsent {
  // The box is on the page when the campaign offers it and the method's form has the consent boxes.
  const marketingOffered = payload.consent.marketing_opt_in && choice !== undefined;
  const own = language && language !== payload.default_language ? payload.translations[language] : undefined;
  return {
    termsAccepted: choice?.termsAccepted ?? false,
    termsVersion: choice?.termsAccepted ? textVersion(own?.custom_terms || payload.custom_terms) : "",
    marketingOffered,
    marketingTicked: choice?.marketingTicked ?? false,
    marketingVersion: marketingOffered ? textVersion(own?.marketing_text || payload.consent.marketing_text) : "",
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
  const voucher = input.voucher;
  const redirectUrl = isHttpUrl(payload.redirect_url) ? payload.redirect_url : "";
  // What the guest gets, decided once (src/gateways/grant-policy.ts), for the families the portal tells it to.
  let decided: Promise<Grant> | undefined;
  const step = gw && {
    gw,
    app,
    config,
    location,
    deviceId: state.dev,
    clientMac: state.mac,
    redirectUrl,
    voucher,
    grant: () => {
      decided ??= loadOptions(app, location.id).then((options) => grantFor({ options, voucher, settings: grantSettings(config) }));
      return decided;
    },
    remember: async (seconds: number, ip = input.clientIp) => {
      if (ip) await recordGrant(app, { locationId: location.id, clientIp: ip, clientMac: state.mac, seconds });
    },
  };
  const family = gw ? handoffOf(gw) : undefined;
  // Before the login is recorded: controllers let the guest in (a guest who retries after a
  // controller failure is not counted twice); a RUCKUS controller is looked up.
  const prepared = step && family?.prepare ? await family.prepare(step) : undefined;
  // A gateway that logs the guest on with RADIUS gets a one-time credential, stored with the login.
  const issued = family?.credential
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
    companion: issued && credentialWithLogin(app.radius, issued.row),
    consent: loginConsent(payload, input.consent, input.language),
    voucherId: voucher?.voucherId ?? null,
  });
  input.onGuest?.(guestId);
  if (step && family) return family.complete({ ...step, guestId, credential: issued?.credential }, prepared);
  return redirectUrl ? { kind: "redirect", url: redirectUrl } : { kind: "connected", continueUrl: "" };
}
