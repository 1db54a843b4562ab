/** The portal's other pages: connected, the SMS code step, welcome back, and errors. */
import { html } from "../../http/html.js";
import type { Translator } from "../../i18n/catalogue.js";
import { langAttr, layout } from "./layout.view.js";
import { type Msg, type PageTexts, richText } from "./login-page.view.js";
import type { Theme } from "./theme.js";

export const DEFAULT_THEME: Theme = { text: "#1f2933", background: "#f5f7fa" };

function stateFields(state: string, lang: string) {
  return html`<input type="hidden" name="state" value="${state}"><input type="hidden" name="lang" value="${lang}">`;
}

/**
 * `goTo`: the browser goes there at once (a meta refresh), the Continue link being there for
 * browsers that do not. In a captive network assistant nothing moves on by itself: the page says
 * the guest is online, and the assistant (which now sees the internet) offers to close.
 */
export function connectedPage(p: { texts: PageTexts; nonce: string; continueUrl: string; goTo?: string; inAssistant?: boolean; passpoint?: { href: string; ssid: string } }): string {
  const t = p.texts.tr.t;
  const body = html`<h1>${t("connected.heading")}</h1>
<p role="status">${t("connected.status", { named: p.texts.ssid ? "yes" : "no", ssid: p.texts.ssid })}</p>
${p.passpoint ? html`<section class="method" aria-labelledby="passpoint-h"><h2 id="passpoint-h">${t("passpoint.offer")}</h2>
<p>${t("passpoint.offerBody", { ssid: p.passpoint.ssid })}</p>
<p><a id="passpoint-link" href="${p.passpoint.href}">${t("passpoint.offerLink")}</a></p></section>` : ""}
${p.continueUrl ? html`<p><a href="${p.continueUrl}">${t("connected.continue")}</a></p>` : ""}`;
  return layout({
    tr: p.texts.tr,
    title: p.texts.title.text || t("connected.title"),
    theme: p.texts.theme,
    nonce: p.nonce,
    footer: p.texts.footer,
    logo: p.texts.logo,
    body,
    // Not while it offers Passpoint: the guest would be taken away from the offer.
    refreshTo: p.inAssistant || p.passpoint ? undefined : p.goTo,
  });
}

export function smsCodePage(p: { texts: PageTexts; nonce: string; state: string; maskedPhone: string; error?: Msg; notice?: Msg }): string {
  const tr = p.texts.tr;
  const t = tr.t;
  const error = p.error ? t(p.error.key, p.error.values) : "";
  const body = html`<h1${langAttr(p.texts.title)}>${p.texts.title.text || t("page.welcome")}</h1>
${p.notice ? html`<p class="notice" role="status">${t(p.notice.key, p.notice.values)}</p>` : ""}
<section class="method" aria-labelledby="code-h"><h2 id="code-h">${t("sms.heading")}</h2>
<p>${richText(tr, "sms.sentTo", { phone: p.maskedPhone }, { bdi: (n) => html`<bdi dir="ltr">${n}</bdi>` })}</p>
<form method="post" action="/portal/login/sms/verify">${stateFields(p.state, tr.lang)}
<label for="sms-code">${t("sms.codeLabel")}</label>
<input id="sms-code" name="code" type="text" class="ltr" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${error ? html` aria-invalid="true" aria-describedby="sms-code-error"` : ""}>
${error ? html`<span class="error" id="sms-code-error" role="alert">${error}</span>` : ""}
<button type="submit">${t("sms.button")}</button></form>
<form method="post" action="/portal/login/sms/resend">${stateFields(p.state, tr.lang)}
<button type="submit" class="secondary">${t("sms.resend")}</button></form></section>`;
  return layout({ tr, title: p.texts.title.text || t("sms.title"), theme: p.texts.theme, nonce: p.nonce, footer: p.texts.footer, logo: p.texts.logo, body });
}

/** A returning guest on a device address we have not seen: back online in one tap, no form. */
export function welcomeBackPage(p: { texts: PageTexts; nonce: string; state: string; name: string }): string {
  const tr = p.texts.tr;
  const t = tr.t;
  const body = html`<h1>${p.name ? t("welcomeBack.headingNamed", { name: p.name }) : t("welcomeBack.heading")}</h1>
<p>${t("welcomeBack.body")}</p>
<form method="post" action="/portal/login/returning">${stateFields(p.state, tr.lang)}
<button type="submit" id="reconnect">${t("welcomeBack.reconnect")}</button></form>
<form method="post" action="/portal/login/returning/forget">${stateFields(p.state, tr.lang)}
<button type="submit" class="secondary">${t("welcomeBack.notMe")}</button></form>`;
  return layout({
    tr,
    title: p.texts.title.text || t("welcomeBack.title"),
    theme: p.texts.theme,
    nonce: p.nonce,
    footer: p.texts.footer,
    logo: p.texts.logo,
    body,
    switcherQuery: p.texts.switcherQuery,
  });
}

export function errorPage(p: { tr: Translator; nonce: string; statusCode: number; sentences: string[]; theme?: Theme }): string {
  const t = p.tr.t;
  const heading = t(p.statusCode === 404 ? "error.heading.notFound" : p.statusCode === 429 ? "error.heading.wait" : "error.heading.other");
  const body = html`<h1>${heading}</h1>
${p.sentences.map((s) => html`<p role="alert">${s}</p>`)}`;
  return layout({ tr: p.tr, title: heading, theme: p.theme ?? DEFAULT_THEME, nonce: p.nonce, footer: { text: "" }, body });
}
