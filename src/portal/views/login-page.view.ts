/**
 * The login page: the campaign's texts and colours and one form per enabled login method, each
 * carrying the signed page state (which is also the CSRF token). No script at all.
 */
import type { SocialProvider } from "../oauth/oauth-providers.js";
import { PROVIDER_LABELS } from "../oauth/oauth-providers.js";
import { type SafeHtml, html } from "../../http/html.js";
import { type PageLogo, layout } from "./layout.view.js";
import type { Theme } from "./theme.js";

export interface PageTexts {
  title: string;
  footer: string;
  ssid: string;
  /** The campaign's terms, already through the allow-list sanitizer; null when it has none. */
  terms: SafeHtml | null;
  theme: Theme;
  logo: PageLogo | null;
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
  consent: { terms: boolean; marketing: string | null };
  notice?: string;
  /** Keyed by input id (custom-email, sms-phone...). */
  errors?: Record<string, string>;
  values?: Record<string, string>;
}

type FieldKind = "name" | "email" | "tel";
const AUTOCOMPLETE: Record<FieldKind, string> = { name: "name", email: "email", tel: "tel" };
const INPUT_TYPE: Record<FieldKind, string> = { name: "text", email: "email", tel: "tel" };

function field(m: LoginPageModel, id: string, name: string, label: string, kind: FieldKind, hint?: string): SafeHtml {
  const error = m.errors?.[id];
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<label for="${id}">${label}</label>
${hint ? html`<small id="${id}-hint">${hint}</small>` : ""}
<input id="${id}" name="${name}" type="${INPUT_TYPE[kind]}" autocomplete="${AUTOCOMPLETE[kind]}" required maxlength="${kind === "tel" ? 32 : 254}" value="${m.values?.[id] ?? ""}"${described ? html` aria-describedby="${described}"` : ""}${error ? html` aria-invalid="true"` : ""}>
${error ? html`<span class="error" id="${id}-error">${error}</span>` : ""}`;
}

/** The terms box (required) and the marketing box (never ticked, never required) of one form. */
function consentBoxes(m: LoginPageModel, prefix: string, terms = m.consent.terms): SafeHtml {
  const id = `${prefix}-terms`;
  const error = m.errors?.[id];
  const termsBox = terms
    ? html`<label class="check" for="${id}"><input id="${id}" name="accept_terms" type="checkbox" value="1" required${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ""}> <span>I accept the ${m.terms ? html`<a href="#terms">terms of use</a>` : "terms of use"}</span></label>
${error ? html`<span class="error" id="${id}-error">${error}</span>` : ""}`
    : "";
  const marketing = m.consent.marketing
    ? html`<label class="check" for="${prefix}-marketing"><input id="${prefix}-marketing" name="marketing_opt_in" type="checkbox" value="1"> <span>${m.consent.marketing}</span></label>`
    : "";
  return html`${termsBox}${marketing}`;
}

function stateInput(m: LoginPageModel): SafeHtml {
  return html`<input type="hidden" name="state" value="${m.state}">`;
}

function methods(m: LoginPageModel): SafeHtml[] {
  const out: SafeHtml[] = [];
  if (m.social.length > 0) {
    // One form, one set of consent boxes, a button per network (each posts to its own address).
    out.push(html`<section class="method social" aria-labelledby="social-h"><h2 id="social-h">Log in with a social account</h2>
<form method="post" action="/portal/login/oauth/${m.social[0]}">${stateInput(m)}
${consentBoxes(m, "social")}
${m.social.map((p) => html`<button type="submit" formaction="/portal/login/oauth/${p}">Continue with ${PROVIDER_LABELS[p]}</button>`)}
</form></section>`);
  }
  if (m.custom) {
    const c = m.custom;
    out.push(html`<section class="method" aria-labelledby="custom-h"><h2 id="custom-h">Tell us who you are</h2>
<form method="post" action="/portal/login/custom">${stateInput(m)}
${c.name ? field(m, "custom-name", "name", "Your name", "name") : ""}
${c.email ? field(m, "custom-email", "email", "E-mail address", "email") : ""}
${c.phone ? field(m, "custom-phone", "phone", "Phone number", "tel") : ""}
${consentBoxes(m, "custom")}
<button type="submit">Connect</button></form></section>`);
  }
  if (m.email) {
    out.push(html`<section class="method" aria-labelledby="email-h"><h2 id="email-h">Log in with your e-mail</h2>
<form method="post" action="/portal/login/email">${stateInput(m)}
${field(m, "email-email", "email", "E-mail address", "email")}
${consentBoxes(m, "email")}
<button type="submit">Connect with e-mail</button></form></section>`);
  }
  if (m.sms) {
    out.push(html`<section class="method" aria-labelledby="sms-h"><h2 id="sms-h">Log in with a text message</h2>
<form method="post" action="/portal/login/sms">${stateInput(m)}
${field(m, "sms-phone", "phone", "Mobile number", "tel", "With country code, for example +44 7700 900123. We text you a code.")}
${consentBoxes(m, "sms")}
<button type="submit">Text me a code</button></form></section>`);
  }
  if (m.voucher) {
    out.push(html`<section class="method" aria-labelledby="voucher-h"><h2 id="voucher-h">I have a voucher</h2>
<form method="post" action="/portal/login/voucher">${stateInput(m)}
${voucherField(m)}
${consentBoxes(m, "voucher")}
<button type="submit">Connect with voucher</button></form></section>`);
  }
  if (m.clickthrough) {
    out.push(html`<section class="method" aria-labelledby="ct-h"><h2 id="ct-h">Free WiFi</h2>
<form method="post" action="/portal/login/clickthrough">${stateInput(m)}
${consentBoxes(m, "ct", true)}
<button type="submit">Connect</button></form></section>`);
  }
  return out;
}

function voucherField(m: LoginPageModel): SafeHtml {
  const id = "voucher-code";
  const error = m.errors?.[id];
  return html`<label for="${id}">Voucher code</label>
<small id="${id}-hint">As printed, for example 4K7MP-XRT9C.</small>
<input id="${id}" name="code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required maxlength="32" value="${m.values?.[id] ?? ""}" aria-describedby="${id}-hint${error ? html` ${id}-error` : ""}"${error ? html` aria-invalid="true"` : ""}>
${error ? html`<span class="error" id="${id}-error">${error}</span>` : ""}`;
}

export function loginPage(m: LoginPageModel): string {
  const forms = methods(m);
  const body = html`<h1>${m.title || "Welcome"}</h1>
${m.ssid ? html`<p class="ssid">WiFi network: ${m.ssid}</p>` : ""}
${m.notice ? html`<p class="notice" role="alert">${m.notice}</p>` : ""}
${forms.length > 0 ? forms : html`<p class="notice">No login method is available here at the moment. Please ask a member of staff.</p>`}
${m.terms ? html`<section class="terms" id="terms" aria-labelledby="terms-h"><h2 id="terms-h">Terms of use</h2>${m.terms}
${!m.clickthrough || forms.length > 1 ? html`<p>By connecting you accept these terms.</p>` : ""}</section>` : ""}`;
  return layout({ title: m.title || "WiFi login", theme: m.theme, nonce: m.nonce, footer: m.footer, body, logo: m.logo });
}
