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
import { escapeHtml } from "../http/html.js";
import { translator } from "../i18n/catalogue.js";
import { type LoginPageModel, type Msg, type PageTexts, loginPage } from "./views/login-page.view.js";
import type { CampaignText } from "./views/layout.view.js";
import { handoffPage } from "./views/handoff-page.view.js";
import { connectedPage, smsCodePage, welcomeBackPage } from "./views/message-page.view.js";
import { campaignTheme } from "./views/theme.js";
import { passpointOfLocation } from "../modules/passpoint/passpoint.service.js";
import { PORTAL_PASSPOINT_PREFIX } from "../portal-urls.js";

/** What rendering needs of the portal's deps. */
export type RenderDeps = Pick<PortalDeps, "config" | "terms"> & Partial<Pick<PortalDeps, "loginTemplates" | "ctx">>;

/** Stand in for the per-guest parts while a page is rendered once; letters only, so escaping leaves them be. */
const NONCE_SLOT = "gwpNonceSlotQ7v";
const STATE_SLOT = "gwpStateSlotZ3k";
const QUERY_SLOT = "gwpQuerySlotM2x";
const SLOTS = new RegExp(`(${NONCE_SLOT}|${STATE_SLOT}|${QUERY_SLOT})`);
/** Where a kept template's nonce, state and switcher query go (LoginTemplateParts). */
const NONCE = 0;
const STATE = 1;
const QUERY = 2;

/**
 * How a page is shown to this guest: its language, the query its language switcher repeats
 * (null: no switcher, as on a page answering a form), and whether it is in a captive network assistant.
 */
export interface PageView {
  lang: string;
  query?: string | null;
  inAssistant?: boolean;
  /** The location the page is of, when known: its connected page offers Passpoint when a configuration covers it. */
  locationId?: number | null;
}

/**
 * The campaign's texts in the page's language when the campaign has them, else in its default
 * language (then marked with that language, so a screen reader reads them in it).
 */
export function pageTexts(deps: RenderDeps, payload: PagePayload, view: PageView, switcherQuery?: string | null): PageTexts {
  const tr = translator(view.lang);
  const own = tr.lang === payload.default_language ? undefined : payload.translations[tr.lang];
  const foreign = tr.lang === payload.default_language ? undefined : payload.default_language;
  const text = (translated: string | undefined, base: string): CampaignText => (translated ? { text: translated } : { text: base, lang: base ? foreign : undefined });
  const terms = own?.custom_terms || payload.custom_terms;
  return {
    tr,
    title: text(own?.title_text, payload.title_text),
    footer: text(own?.footer_text, payload.footer_text),
    ssid: payload.ssid,
    terms: terms ? { html: deps.terms.sanitize(terms), lang: own?.custom_terms ? undefined : foreign } : null,
    theme: campaignTheme(payload.text_color, payload.background),
    logo: payload.pageLogo,
    switcherQuery: switcherQuery === undefined ? view.query : switcherQuery,
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
  notice?: Msg;
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
  view: PageView,
  extras: LoginPageExtras = {},
): string | Buffer {
  const { config } = deps;
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, formTargets(config, payload, gw));
  reply.type("text/html; charset=utf-8");
  // Nonce and state are letters, digits and -_+/=. , which escaping leaves as they are: the page is
  // the same whether they are filled into the rendered template or rendered with it.
  if (deps.loginTemplates && !extras.errors && !extras.values) {
    const key = `${view.lang}\u0000${view.inAssistant ? 1 : 0}\u0000${typeof view.query === "string" ? 1 : 0}\u0000${extras.notice ? JSON.stringify(extras.notice) : ""}`;
    let byNotice = deps.loginTemplates.get(payload);
    if (!byNotice) {
      byNotice = new Map();
      deps.loginTemplates.set(payload, byNotice);
    }
    let parts = byNotice.get(key);
    if (!parts) {
      const slotted = { ...view, query: typeof view.query === "string" ? QUERY_SLOT : null };
      parts = loginPage(loginModel(deps, payload, NONCE_SLOT, STATE_SLOT, slotted, extras))
        .split(SLOTS)
        .map((part) => (part === NONCE_SLOT ? NONCE : part === STATE_SLOT ? STATE : part === QUERY_SLOT ? QUERY : Buffer.from(part, "utf8")));
      if (byNotice.size >= 64) byNotice.clear();
      byNotice.set(key, parts);
    }
    return fillSlots(parts, nonce, state, typeof view.query === "string" ? switcherQueryHtml(view.query) : "");
  }
  return loginPage(loginModel(deps, payload, nonce, state, { ...view, query: typeof view.query === "string" ? switcherQuery(view.query) : null }, extras));
}

/** The switcher's query: the page's own, then "&" before the switcher's `lang=`; "" when the page has none. */
function switcherQuery(query: string): string {
  return query === "" ? "" : `${query}&`;
}

/** The same, as it stands in an attribute of the page. */
function switcherQueryHtml(query: string): string {
  const q = switcherQuery(query);
  // A gateway's query has "&" between its items and seldom anything else to escape.
  return /[<>"']/.test(q) ? escapeHtml(q) : q.replaceAll("&", "&amp;");
}

/** Pages are cut from slabs of this size, one after another; a slab is freed once its pages are sent. */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let slabAt = 0;

/**
 * Room for one page. Node pools only buffers under 4 KiB; a login page with its language switcher
 * is about 8 KiB, and a fresh allocation per page (and the garbage collector's work on it) cost
 * more than filling it. The bytes handed out are never written again.
 */
function pageBuffer(length: number): Buffer {
  if (length > SLAB_BYTES / 8) return Buffer.allocUnsafe(length);
  if (slabAt + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabAt = 0;
  }
  const out = slab.subarray(slabAt, slabAt + length);
  slabAt += (length + 7) & ~7;
  return out;
}

/**
 * The page's bytes with `nonce` and `state` (ASCII: base64 and base64url) and the switcher's
 * query (already escaped; UTF-8 when the gateway sent raw bytes) in their slots.
 */
function fillSlots(parts: LoginTemplateParts, nonce: string, state: string, query: string): Buffer {
  const queryBytes = query === "" ? 0 : Buffer.byteLength(query, "utf8");
  let length = 0;
  for (const part of parts) length += part === NONCE ? nonce.length : part === STATE ? state.length : part === QUERY ? queryBytes : part.length;
  const out = pageBuffer(length);
  let at = 0;
  // The switcher repeats the query once per language: encoded once, then copied as bytes.
  let queryAt = -1;
  for (const part of parts) {
    if (part === NONCE) at += out.write(nonce, at, "latin1");
    else if (part === STATE) at += out.write(state, at, "latin1");
    else if (part === QUERY) {
      if (queryBytes === 0) continue;
      if (queryAt < 0) {
        queryAt = at;
        at += out.write(query, at, "utf8");
      } else {
        out.copyWithin(at, queryAt, queryAt + queryBytes);
        at += queryBytes;
      }
    } else {
      // TypedArray's set: a native copy, without Buffer.copy's argument handling in JavaScript.
      out.set(part, at);
      at += part.length;
    }
  }
  return out;
}

function loginModel(deps: RenderDeps, payload: PagePayload, nonce: string, state: string, view: PageView, extras: LoginPageExtras): LoginPageModel {
  const { config } = deps;
  const available = (m: Parameters<typeof methodAvailable>[2]) => methodAvailable(config, payload, m);
  const texts = pageTexts(deps, payload, view);
  const own = texts.tr.lang === payload.default_language ? undefined : payload.translations[texts.tr.lang];
  const marketing: CampaignText = own?.marketing_text
    ? { text: own.marketing_text }
    : payload.consent.marketing_text
      ? { text: payload.consent.marketing_text, lang: texts.tr.lang === payload.default_language ? undefined : payload.default_language }
      : { text: texts.tr.t("consent.marketingDefault") };
  const button = own?.button_text ? { text: own.button_text } : payload.button_text ? { text: payload.button_text, lang: texts.tr.lang === payload.default_language ? undefined : payload.default_language } : null;
  return {
    ...texts,
    buttonText: button,
    inAssistant: view.inAssistant,
    nonce,
    state,
    social: SOCIAL_PROVIDERS.filter(available),
    custom: available("custom") ? payload.custom_fields : null,
    email: available("email"),
    sms: available("sms"),
    clickthrough: available("clickthrough"),
    voucher: available("voucher"),
    consent: { terms: payload.consent.terms_required, marketing: payload.consent.marketing_opt_in ? marketing : null },
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
  view: PageView,
  extras: { error?: Msg; notice?: Msg } = {},
): string {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, formTargets(deps.config, payload, gw));
  reply.type("text/html; charset=utf-8");
  return smsCodePage({ texts: pageTexts(deps, payload, view, null), nonce, state, maskedPhone: maskPhone(phone), ...extras });
}

/** The one-tap reconnect of a returning guest; its form hands off like the login page. */
export function renderWelcomeBack(reply: FastifyReply, deps: RenderDeps, payload: PagePayload, state: string, gw: GatewayState | null, name: string, view: PageView): string {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, formTargets(deps.config, payload, gw));
  reply.type("text/html; charset=utf-8");
  const query = typeof view.query === "string" ? switcherQuery(view.query) : null;
  return welcomeBackPage({ texts: pageTexts(deps, payload, view, query), nonce, state, name });
}

/** `goTo`: an http(s) URL the page then sends the browser to by itself (see the `landing` hand-off). */
export async function renderConnected(reply: FastifyReply, deps: RenderDeps, payload: PagePayload, view: PageView, goTo?: string): Promise<string> {
  const config = view.locationId && deps.ctx ? await passpointOfLocation(deps.ctx, view.locationId) : undefined;
  const passpoint = config && view.locationId ? { href: `${PORTAL_PASSPOINT_PREFIX}${view.locationId}`, ssid: config.ssid } : undefined;
  const nonce = newNonce();
  const continueUrl = isHttpUrl(payload.redirect_url) ? payload.redirect_url : "";
  setPortalHeaders(reply, nonce, []);
  reply.type("text/html; charset=utf-8");
  // Normalised (spaces and quotes percent-encoded), so that the refresh's URL is the whole of it.
  const refreshTo = goTo && isHttpUrl(goTo) ? new URL(goTo).href : undefined;
  return connectedPage({ texts: pageTexts(deps, payload, view, null), nonce, continueUrl, goTo: refreshTo, inAssistant: view.inAssistant, passpoint });
}

/** 303 to the gateway (or redirect_url), or the connected page when there is nowhere to go. */
export async function sendHandoff(reply: FastifyReply, deps: RenderDeps, payload: PagePayload, handoff: Handoff, view: PageView): Promise<FastifyReply | string> {
  if (handoff.kind === "connected") return renderConnected(reply, deps, payload, view);
  if (handoff.kind === "landing") return renderConnected(reply, deps, payload, view, handoff.url);
  if (handoff.kind === "post") {
    const nonce = newNonce();
    // The gateway answers the post with a redirect to where the guest was going: allowed too.
    setPortalHeaders(reply, nonce, handoff.landing ? [handoff.url, handoff.landing] : [handoff.url], true);
    reply.type("text/html; charset=utf-8");
    return handoffPage({ texts: pageTexts(deps, payload, view, null), nonce, url: handoff.url, fields: handoff.fields });
  }
  setPortalHeaders(reply, newNonce(), []);
  return reply.redirect(handoff.url, 303);
}
