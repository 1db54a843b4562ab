/**
 * The common interface of a gateway family's hand-off (model: PacketFence's `lib/pf/Switch/<Vendor>.pm`,
 * which keeps a vendor's hand-off, RADIUS reply and disconnect in one class): how the portal reads
 * the redirect that brought a guest, which hosts it may send the guest back to, and how it lets the
 * guest in once the login is recorded. Each family implements it in its own folder
 * (src/gateways/<family>/); src/gateways/registry.ts finds the implementation of a state's `kind`.
 * The portal's services (portal-login.service.ts, portal-page.service.ts, portal-render.ts) ask
 * the registry and never test a kind themselves.
 */
import type { Config } from "../config.js";
import type { FamilyId } from "../modules/devices/device-families.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import type { VoucherLimits } from "../modules/vouchers/vouchers.service.js";
import type { ControllerGrants } from "../portal/controller-grants.js";
import type { RadiusCtx } from "../radius/radius.repository.js";
import type { GatewayParse, GatewayState } from "./gateway-types.js";
import type { Grant } from "./grant-policy.js";

export interface GatewayParseInput {
  query: Record<string, unknown>;
  /** The page URL as the gateway built it (public base + raw path and query), for Coova's `md`. */
  rawUrls: string[];
  coovaUamSecret: string | undefined;
}

/** Where the guest goes after the login. */
export type HandoffResult =
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

/** What a login hands a family, before and after the login is recorded. */
export interface LoginStep<S extends GatewayState> {
  gw: S;
  app: RadiusCtx & { readonly controllers: ControllerGrants };
  config: Readonly<Config>;
  location: LocationRow;
  /** The registered device the guest came through (page state), if any. */
  deviceId: number | null;
  /** The guest's MAC as the gateway vouched for it, or "". */
  clientMac: string;
  /** The campaign's redirect_url when it is an http(s) URL, else "". */
  redirectUrl: string;
  voucher: VoucherLimits | undefined;
  /** What the guest gets (src/gateways/grant-policy.ts), decided once per login. */
  grant(): Promise<Grant>;
  /** Tells the RFC 8908 API that the device at `ip` (the portal's view of the guest when omitted) is online for `seconds`. */
  remember(seconds: number, ip?: string): Promise<void>;
}

export interface RecordedStep<S extends GatewayState> extends LoginStep<S> {
  guestId: number;
  /** The one-time RADIUS credential stored with the login (families with `credential`). */
  credential: { username: string; password: string } | undefined;
}

/** After the login: what the guest sees when the family leaves it to the campaign (online, then redirect_url). */
export function onlineOrRedirect(redirectUrl: string): HandoffResult {
  return redirectUrl ? { kind: "landing", url: redirectUrl } : { kind: "connected", continueUrl: "" };
}

export interface Handoff<S extends GatewayState = GatewayState, P = unknown> {
  kind: S["kind"];
  /** A redirect of this kind counts only from a device of this family (controller families: the model decides). */
  onlyFrom?: FamilyId;
  /** Whether a page's query is this hand-off's redirect (asked in the registry's order); absent: it arrives another way (its own route, openNDS's decryption). */
  detects?(query: Record<string, unknown>): boolean;
  parse?(input: GatewayParseInput): GatewayParse;
  /** Whether the hand-off target (`host`, lower case, no brackets) is one the gateway vouches for; the AP's registered address is allowed before this is asked. */
  targetAllowed(state: S, host: string): boolean;
  /** Where the login page's forms (and the redirects after them) may go, for its CSP form-action. */
  formTargets(state: S): string[];
  /** The gateway asks RADIUS with a one-time credential issued with the login. */
  credential: boolean;
  /** Runs before the login is recorded: a failure here records nothing (a controller that does not answer). */
  prepare?(step: LoginStep<S>): Promise<P>;
  /** Lets the guest in once the login is recorded, and says where the browser goes. */
  complete(step: RecordedStep<S>, prepared: P): Promise<HandoffResult>;
  /** The guest's MAC when the redirect carries it only in a form the gateway's controller must open (RUCKUS SmartZone). */
  revealClientMac?(app: LoginStep<S>["app"], location: LocationRow, state: S): Promise<string>;
}

/** A family whose browser posts a one-time credential to the gateway's login URL, which asks RADIUS. */
export function postLoginHandoff<S extends GatewayState & { login: string }>(h: {
  kind: S["kind"];
  detects(query: Record<string, unknown>): boolean;
  parse(input: GatewayParseInput): GatewayParse;
  targetAllowed(state: S, host: string): boolean;
  /** The posted fields; `next` is the campaign's redirect_url or "". */
  fields(state: S, credential: { username: string; password: string }, next: string): [string, string][];
  /** Where the gateway sends the guest afterwards. */
  landing(state: S, redirectUrl: string): string;
}): Handoff<S> {
  return {
    kind: h.kind,
    detects: h.detects,
    parse: h.parse,
    targetAllowed: h.targetAllowed,
    formTargets: (state) => [state.login],
    credential: true,
    async complete(step) {
      const credential = step.credential;
      if (!credential) throw new Error(`${h.kind}: no credential issued`);
      return { kind: "post", url: step.gw.login, fields: h.fields(step.gw, credential, step.redirectUrl), landing: h.landing(step.gw, step.redirectUrl) };
    },
  };
}
