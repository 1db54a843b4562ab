/**
 * The login page: the campaign's texts and colours and one form per enabled login method, each
 * carrying the signed page state (which is also the CSRF token). No script at all. Every built-in
 * text comes from the catalogue of the page's language (src/i18n).
 */
import type { SocialProvider } from "../oauth/oauth-providers.js";
import { PROVIDER_LABELS } from "../oauth/oauth-providers.js";
import { type SafeHtml, html } from "../../http/html.js";
import type { MessageValues, Translator } from "../../i18n/catalogue.js";
import { translateParts } from "../../i18n/catalogue.js";
import { type CampaignText, type PageLogo, langAttr, layout } from "./layout.view.js";
import type { Theme } from "./theme.js";

export interface PageTexts {
  tr: Translator;
  title: CampaignText;
  footer: CampaignText;
  ssid: string;
  /** The campaign's terms, already through the allow-list sanitizer; null when it has none. */
  terms: { html: SafeHtml; lang?: string } | null;
  theme: Theme;
  logo: PageLogo | null;
  /** The switcher's query (layout.view.ts); null or absent: no switcher. */
  switcherQuery?: string | null;
}

/** A catalogue message: its key and arguments. */
export interface Msg {
  key: string;
  values?: MessageValues;
}

export interface LoginPageModel extends PageTexts {
  nonce: string;
  state: string;
  social: SocialProvider[];
  custom: { name: boolean; email: boolean; phone: boolean } | null;
  email: boolean;
  sms: boolean;
  clickthrough: boolean;
  /** The voucher form. */
  voucher: boolean;
  /** Consent boxes on every form: the required terms box, and the unticked marketing box with its text (null: none). */
  consent: { terms: boolean; marketing: CampaignText | null };
  notice?: Msg;
  /** Keyed by input id (custom-email, sms-phone...): catalogue keys of the sentences. */
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** The campaign's label of the connect buttons; null: the built-in ones. */
  buttonText?: CampaignText | null;
  /** Shown in a captive network assistant: social logins (refused in web views by their providers) point to the browser. */
  inAssistant?: boolean;
}

/** A message with markup: `<tag>` parts of the catalogue message are wrapped by `tags`, the rest escaped. */
export function richText(tr: Translator, key: string, values: MessageValues, tags: Record<string, (chunks: SafeHtml) => SafeHtml>): SafeHtml {
  const wrapped = Object.fromEntries(Object.entries(tags).map(([name, wrap]) => [name, (chunks: (string | SafeHtml)[]) => wrap(html`${chunks}`)]));
  return html`${translateParts<SafeHtml>(tr.lang, key, values, wrapped)}`;
}

type FieldKind = "name" | "email" | "tel";
const AUTOCOMPLETE: Record<FieldKind, string> = { name: "name", email: "email", tel: "tel" };
const INPUT_TYPE: Record<FieldKind, string> = { name: "text", email: "email", tel: "tel" };

function errorText(m: LoginPageModel, id: string): string | undefined {
  const key = m.errors?.[id];
  return key === undefined ? undefined : m.tr.t(key);
}

function field(m: LoginPageModel, id: string, name: string, label: string, kind: FieldKind, hint?: string): SafeHtml {
  const error = errorText(m, id);
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<label for="${id}">${label}</label>
${hint ? html`<small id="${id}-hint">${hint}</small>` : ""}
<input id="${id}" name="${name}" type="${INPUT_TYPE[kind]}" autocomplete="${AUTOCOMPLETE[kind]}" required maxlength="${kind === "tel" ? 32 : 254}" value="${m.values?.[id] ?? ""}"${described ? html` aria-describedby="${described}"` : ""}${error ? html` aria-invalid="true"` : ""}>
${error ? html`<span class="error" id="${id}-error">${error}</span>` : ""}`;
}

/** The terms box (required) and the marketing box (never ticked, never required) of one form. */
function consentBoxes(m: LoginPageModel, prefix: string, terms = m.consent.terms): SafeHtml {
  const id = `${prefix}-terms`;
  const error = errorText(m, id);
  const accept = richText(m.tr, "consent.terms", {}, { terms: (words) => (m.terms ? html`<a href="#terms">${words}</a>` : words) });
  const termsBox = terms
    ? html`<label class="check" for="${id}"><input id="${id}" name="accept_terms" type="checkbox" value="1" required${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ""}> <span>${accept}</span></label>
${error ? html`<span class="error" id="${id}-error">${error}</span>` : ""}`
    : "";
  const mk = m.consent.marketing;
  const marketing = mk
    ? html`<label class="check" for="${prefix}-marketing"><input id="${prefix}-marketing" name="marketing_opt_in" type="checkbox" value="1"> <span${langAttr(mk)}>${mk.text}</span></label>`
    : "";
  return html`${termsBox}${marketing}`;
}

function stateInput(m: LoginPageModel): SafeHtml {
  return html`<input type="hidden" name="state" value="${m.state}"><input type="hidden" name="lang" value="${m.tr.lang}">`;
}

function socialSection(m: LoginPageModel): SafeHtml {
  const t = m.tr.t;
  if (m.inAssistant) {
    // Google and Facebook refuse their sign-in inside web views: say so, and how to go on. No link
    // that opens a window (the assistants block them): any address the guest opens in the browser
    // is sent here by the gateway while the device is not yet online.
    const names = m.social.map((p) => PROVIDER_LABELS[p]).join(" / ");
    return html`<section class="method social" aria-labelledby="social-h"><h2 id="social-h">${t("login.social.heading")}</h2>
<p><strong>${t("login.social.openInBrowser")}</strong></p>
<p>${t("login.social.inAssistant", { provider: names })}</p></section>`;
  }
  // One form, one set of consent boxes, a button per network (each posts to its own address).
  return html`<section class="method social" aria-labelledby="social-h"><h2 id="social-h">${t("login.social.heading")}</h2>
<form method="post" action="/portal/login/oauth/${m.social[0]}">${stateInput(m)}
${consentBoxes(m, "social")}
${m.social.map((p) => html`<button type="submit" formaction="/portal/login/oauth/${p}">${t("login.social.button", { provider: PROVIDER_LABELS[p] })}</button>`)}
</form></section>`;
}

function methods(m: LoginPageModel): SafeHtml[] {
  const t = m.tr.t;
  const out: SafeHtml[] = [];
  if (m.social.length > 0) out.push(socialSection(m));
  if (m.custom) {
    const c = m.custom;
    out.push(html`<section class="method" aria-labelledby="custom-h"><h2 id="custom-h">${t("login.custom.heading")}</h2>
<form method="post" action="/portal/login/custom">${stateInput(m)}
${c.name ? field(m, "custom-name", "name", t("field.name"), "name") : ""}
${c.email ? field(m, "custom-email", "email", t("field.email"), "email") : ""}
${c.phone ? field(m, "custom-phone", "phone", t("field.phone"), "tel") : ""}
${consentBoxes(m, "custom")}
${connectButton(m, "login.custom.button")}</form></section>`);
  }
  if (m.email) {
    out.push(html`<section class="method" aria-labelledby="email-h"><h2 id="email-h">${t("login.email.heading")}</h2>
<form method="post" action="/portal/login/email">${stateInput(m)}
${field(m, "email-email", "email", t("field.email"), "email")}
${consentBoxes(m, "email")}
${connectButton(m, "login.email.button")}</form></section>`);
  }
  if (m.sms) {
    out.push(html`<section class="method" aria-labelledby="sms-h"><h2 id="sms-h">${t("login.sms.heading")}</h2>
<form method="post" action="/portal/login/sms">${stateInput(m)}
${field(m, "sms-phone", "phone", t("field.mobile"), "tel", t("field.mobileHint"))}
${consentBoxes(m, "sms")}
<button type="submit">${t("login.sms.button")}</button></form></section>`);
  }
  if (m.voucher) {
    out.push(html`<section class="method" aria-labelledby="voucher-h"><h2 id="voucher-h">${t("login.voucher.heading")}</h2>
<form method="post" action="/portal/login/voucher">${stateInput(m)}
${voucherField(m)}
${consentBoxes(m, "voucher")}
${connectButton(m, "login.voucher.button")}</form></section>`);
  }
  if (m.clickthrough) {
    out.push(html`<section class="method" aria-labelledby="ct-h"><h2 id="ct-h">${t("login.clickthrough.heading")}</h2>
<form method="post" action="/portal/login/clickthrough">${stateInput(m)}
${consentBoxes(m, "ct", true)}
${connectButton(m, "login.clickthrough.button")}</form></section>`);
  }
  return out;
}

/** A form's submit button: the campaign's label when it has one, else the built-in one of the method. */
function connectButton(m: LoginPageModel, key: string): SafeHtml {
  const own = m.buttonText;
  return own?.text ? html`<button type="submit"${langAttr(own)}>${own.text}</button>` : html`<button type="submit">${m.tr.t(key)}</button>`;
}

function voucherField(m: LoginPageModel): SafeHtml {
  const id = "voucher-code";
  const error = errorText(m, id);
  return html`<label for="${id}">${m.tr.t("field.voucher")}</label>
<small id="${id}-hint">${m.tr.t("field.voucherHint")}</small>
<input id="${id}" name="code" type="text" class="ltr" autocomplete="off" autocapitalize="characters" spellcheck="false" required maxlength="32" value="${m.values?.[id] ?? ""}" aria-describedby="${id}-hint${error ? html` ${id}-error` : ""}"${error ? html` aria-invalid="true"` : ""}>
${error ? html`<span class="error" id="${id}-error">${error}</span>` : ""}`;
}

/** The notice, with the number of fields to fix when the form came back with errors (an alert: announced at once). */
function noticeOf(m: LoginPageModel): SafeHtml | string {
  if (!m.notice) return "";
  const count = Object.keys(m.errors ?? {}).length;
  const text = m.tr.t(m.notice.key, m.notice.values);
  return html`<p class="notice" role="alert">${text}${count > 0 ? html` ${m.tr.t("form.errorCount", { count })}` : ""}</p>`;
}

export function loginPage(m: LoginPageModel): string {
  const t = m.tr.t;
  const forms = methods(m);
  const body = html`<h1${langAttr(m.title)}>${m.title.text || t("page.welcome")}</h1>
${m.ssid ? html`<p class="ssid">${t("page.network", { ssid: m.ssid })}</p>` : ""}
${noticeOf(m)}
${forms.length > 0 ? forms : html`<p class="notice">${t("login.noMethods")}</p>`}
${m.terms ? html`<section class="terms" id="terms" aria-labelledby="terms-h"><h2 id="terms-h">${t("terms.heading")}</h2><div${m.terms.lang ? html` lang="${m.terms.lang}"` : ""}>${m.terms.html}</div>
${!m.clickthrough || forms.length > 1 ? html`<p>${t("terms.byConnecting")}</p>` : ""}</section>` : ""}`;
  return layout({ tr: m.tr, title: m.title.text || t("page.defaultTitle"), theme: m.theme, nonce: m.nonce, footer: m.footer, body, logo: m.logo, switcherQuery: m.switcherQuery });
}

