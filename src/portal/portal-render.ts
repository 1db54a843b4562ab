/** Turning a campaign and a page state into responses: the login page, the connected page, a hand-off. */
import type { FastifyReply } from "fastify";
import { isHttpUrl } from "../http/validation.js";
import type { GatewayState } from "../gateways/gateway.js";
import type { PagePayload } from "./page-payload.js";
import { handoffOf } from "../gateways/registry.js";
import { SOCIAL_PROVIDERS } from "./oauth/oauth-providers.js";
import { newNonce, setPortalHeaders } from "./portal-headers.js";
import { maskPhone } from "./portal-forms.js";
import type { LoginTemplateParts, PortalDeps } from "./portal-deps.js";
import { type Handoff, methodAvailable } from "./portal-login.service.js";
import { type LoginPageModel, type PageTexts, loginPage } from "./views/login-page.view.js";
import { handoffPage } from "./views/handoff-page.view.js";
import { connectedPage, smsCodePage, welcomeBackPage } from "./views/message-page.view.js";
import { campaignTheme } from "./views/theme.js";

/** What rendering needs of the portal's deps. */
export type RenderDeps = Pick<PortalDeps, "config" | "terms"> & Partial<Pick<PortalDeps, "loginTemplates">>;

/** Stand in for the per-guest parts while a page is rendered once; letters only, so escaping leaves them be. */
const NONCE_SLOT = "gwpNonceSlotQ7v";
const STATE_SLOT = "gwpStateSlotZ3k";
const SLOTS = new RegExp(`(${NONCE_SLOT}|${STATE_SLOT})`);
/** Where a kept template's nonce and state go (LoginTemplateParts). */
const NONCE = 0;
const STATE = 1;

export function pageTexts(deps: RenderDeps, payload: PagePayload): PageTexts {
  return {
    title: payload.title_text,
    footer: payload.footer_text,
    ssid: payload.ssid,
    terms: payload.custom_terms ? deps.terms.sanitize(payload.custom_terms) : null,
    theme: campaignTheme(payload.text_color, payload.background),
    logo: payload.pageLogo,
  };
}

/** Every place a form on this page may lead to (CSP form-action also governs the redirects after a POST). */
function formTargets(config: RenderDeps["config"], payload: PagePayload, gw: GatewayState | null): string[] {
  const out: string[] = [];
  // The gateway's own targets, as its family says (src/gateways/<family>/).
  if (gw) out.push(...handoffOf(gw).formTargets(gw));
  if (isHttpUrl(payload.redirect_url)) out.push(payload.redirect_url);
  for (const p of SOCIAL_PROVIDERS) {
    const cfg = config.oauth[p];
    if (cfg && methodAvailable(config, payload, p)) out.push(cfg.authorizeUrl);
  }
  return out;
}

export interface LoginPageExtras {
  notice?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
}

/**
 * The login page. Rendered once per campaign payload and notice with the two per-guest parts left
 * open, kept as bytes, and sent as bytes: each request only copies the parts and writes its nonce
 * and state between them (no per-request rendering, no string to measure and encode on the way out).
 * A page with form errors or values, or without the deps' template cache (the console's preview), is
 * rendered in full.
 */
export function renderLogin(
  reply: FastifyReply,
  deps: RenderDeps,
  payload: PagePayload,
  state: string,
  gw: GatewayState | null,
  extras: LoginPageExtras = {},
): string | Buffer {
  const { config } = deps;
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, formTargets(config, payload, gw));
  reply.type("text/html; charset=utf-8");
  // Nonce and state are letters, digits and -_+/=. , which escaping leaves as they are: the page is
  // the same whether they are filled into the rendered template or rendered with it.
  if (deps.loginTemplates && !extras.errors && !extras.values) {
    const key = extras.notice ?? "";
    let byNotice = deps.loginTemplates.get(payload);
    if (!byNotice) {
      byNotice = new Map();
      deps.loginTemplates.set(payload, byNotice);
    }
    let parts = byNotice.get(key);
    if (!parts) {
      parts = loginPage(loginModel(deps, payload, NONCE_SLOT, STATE_SLOT, extras))
        .split(SLOTS)
        .map((part) => (part === NONCE_SLOT ? NONCE : part === STATE_SLOT ? STATE : Buffer.from(part, "utf8")));
      byNotice.set(key, parts);
    }
    return fillSlots(parts, nonce, state);
  }
  return loginPage(loginModel(deps, payload, nonce, state, extras));
}

/** The page's bytes with `nonce` and `state` (ASCII: base64 and base64url) in their slots. */
function fillSlots(parts: LoginTemplateParts, nonce: string, state: string): Buffer {
  let length = 0;
  for (const part of parts) length += part === NONCE ? nonce.length : part === STATE ? state.length : part.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) {
    if (part === NONCE) at += out.write(nonce, at, "latin1");
    else if (part === STATE) at += out.write(state, at, "latin1");
    else at += part.copy(out, at);
  }
  return out;
}

function loginModel(deps: RenderDeps, payload: PagePayload, nonce: string, state: string, extras: LoginPageExtras): LoginPageModel {
  const { config } = deps;
  const available = (m: Parameters<typeof methodAvailable>[2]) => methodAvailable(config, payload, m);
  return {
    ...pageTexts(deps, payload),
    nonce,
    state,
    social: SOCIAL_PROVIDERS.filter(available),
    custom: available("custom") ? payload.custom_fields : null,
    email: available("email"),
    sms: available("sms"),
    clickthrough: available("clickthrough"),
    voucher: available("voucher"),
    consent: { terms: payload.consent.terms_required, marketing: payload.consent.marketing_opt_in ? payload.consent.marketing_text : null },
    ...extras,
  };
}

/** The SMS code step; its form hands off like the login page, so it gets the same form targets. */
export function renderSmsCode(
  reply: FastifyReply,
  deps: RenderDeps,
  payload: PagePayload,
  state: string,
  gw: GatewayState | null,
  phone: string,
  extras: { error?: string; notice?: string } = {},
): string {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, formTargets(deps.config, payload, gw));
  reply.type("text/html; charset=utf-8");
  return smsCodePage({ texts: pageTexts(deps, payload), nonce, state, maskedPhone: maskPhone(phone), ...extras });
}

/** The one-tap reconnect of a returning guest; its form hands off like the login page. */
export function renderWelcomeBack(reply: FastifyReply, deps: RenderDeps, payload: PagePayload, state: string, gw: GatewayState | null, name: string): string {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, formTargets(deps.config, payload, gw));
  reply.type("text/html; charset=utf-8");
  return welcomeBackPage({ texts: pageTexts(deps, payload), nonce, state, name });
}

/** `goTo`: an http(s) URL the page then sends the browser to by itself (see the `landing` hand-off). */
export function renderConnected(reply: FastifyReply, deps: RenderDeps, payload: PagePayload, heading: string, goTo?: string): string {
  const nonce = newNonce();
  const continueUrl = isHttpUrl(payload.redirect_url) ? payload.redirect_url : "";
  setPortalHeaders(reply, nonce, []);
  reply.type("text/html; charset=utf-8");
  // Normalised (spaces and quotes percent-encoded), so that the refresh's URL is the whole of it.
  const refreshTo = goTo && isHttpUrl(goTo) ? new URL(goTo).href : undefined;
  return connectedPage({ texts: pageTexts(deps, payload), nonce, heading, continueUrl, goTo: refreshTo });
}

/** 303 to the gateway (or redirect_url), or the connected page when there is nowhere to go. */
export function sendHandoff(reply: FastifyReply, deps: RenderDeps, payload: PagePayload, handoff: Handoff): FastifyReply | string {
  if (handoff.kind === "connected") return renderConnected(reply, deps, payload, "You are online");
  if (handoff.kind === "landing") return renderConnected(reply, deps, payload, "You are online", handoff.url);
  if (handoff.kind === "post") {
    const nonce = newNonce();
    // The gateway answers the post with a redirect to where the guest was going: allowed too.
    setPortalHeaders(reply, nonce, handoff.landing ? [handoff.url, handoff.landing] : [handoff.url], true);
    reply.type("text/html; charset=utf-8");
    return handoffPage({ texts: pageTexts(deps, payload), nonce, url: handoff.url, fields: handoff.fields });
  }
  setPortalHeaders(reply, newNonce(), []);
  return reply.redirect(handoff.url, 303);
}
