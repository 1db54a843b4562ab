/** The portal's other pages: connected, the SMS code step, and errors. */
import { html } from "../../http/html.js";
import { layout } from "./layout.view.js";
import type { PageTexts } from "./login-page.view.js";
import type { Theme } from "./theme.js";

export const DEFAULT_THEME: Theme = { text: "#1f2933", background: "#f5f7fa" };

/** `goTo`: the browser goes there at once (a meta refresh), the Continue link being there for browsers that do not. */
export function connectedPage(p: { texts: PageTexts; nonce: string; heading: string; continueUrl: string; goTo?: string }): string {
  const body = html`<h1>${p.heading}</h1>
<p role="status">You are connected to ${p.texts.ssid || "the WiFi"}. You can close this page.</p>
${p.continueUrl ? html`<p><a href="${p.continueUrl}">Continue</a></p>` : ""}`;
  return layout({ title: p.texts.title || "Connected", theme: p.texts.theme, nonce: p.nonce, footer: p.texts.footer, logo: p.texts.logo, body, refreshTo: p.goTo });
}

export function smsCodePage(p: {
  texts: PageTexts;
  nonce: string;
  state: string;
  maskedPhone: string;
  error?: string;
  notice?: string;
}): string {
  const body = html`<h1>${p.texts.title || "Welcome"}</h1>
${p.notice ? html`<p class="notice" role="status">${p.notice}</p>` : ""}
<section class="method" aria-labelledby="code-h"><h2 id="code-h">Enter your code</h2>
<p>We sent a 6-digit code to ${p.maskedPhone}.</p>
<form method="post" action="/portal/login/sms/verify"><input type="hidden" name="state" value="${p.state}">
<label for="sms-code">Code</label>
<input id="sms-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${p.error ? html` aria-invalid="true" aria-describedby="sms-code-error"` : ""}>
${p.error ? html`<span class="error" id="sms-code-error">${p.error}</span>` : ""}
<button type="submit">Connect</button></form>
<form method="post" action="/portal/login/sms/resend"><input type="hidden" name="state" value="${p.state}">
<button type="submit" class="secondary">Send a new code</button></form></section>`;
  return layout({ title: p.texts.title || "Enter your code", theme: p.texts.theme, nonce: p.nonce, footer: p.texts.footer, logo: p.texts.logo, body });
}

/** A returning guest on a device address we have not seen: back online in one tap, no form. */
export function welcomeBackPage(p: { texts: PageTexts; nonce: string; state: string; name: string }): string {
  const body = html`<h1>${p.name ? html`Welcome back, ${p.name}` : "Welcome back"}</h1>
<p>This browser has been online here before. Connect again without filling in the form.</p>
<form method="post" action="/portal/login/returning"><input type="hidden" name="state" value="${p.state}">
<button type="submit" id="reconnect">Connect again</button></form>
<form method="post" action="/portal/login/returning/forget"><input type="hidden" name="state" value="${p.state}">
<button type="submit" class="secondary">Not me: show the login page</button></form>`;
  return layout({ title: p.texts.title || "Welcome back", theme: p.texts.theme, nonce: p.nonce, footer: p.texts.footer, logo: p.texts.logo, body });
}

export function errorPage(p: { nonce: string; statusCode: number; sentences: string[]; theme?: Theme }): string {
  const heading = p.statusCode === 404 ? "Page not found" : p.statusCode === 429 ? "Please wait a moment" : "Something went wrong";
  const body = html`<h1>${heading}</h1>
${p.sentences.map((s) => html`<p role="alert">${s}</p>`)}`;
  return layout({ title: heading, theme: p.theme ?? DEFAULT_THEME, nonce: p.nonce, footer: "", body });
}
