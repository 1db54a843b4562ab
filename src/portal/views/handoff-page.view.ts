/**
 * The page that posts a guest's credentials to their gateway (MikroTik, Aruba, RUCKUS, Cambium,
 * Meraki sign-on): a form of hidden fields aimed at the gateway's login URL, submitted by the
 * portal's one script file (CSP allows no inline script), with a button for browsers without it.
 */
import { html } from "../../http/html.js";
import { layout } from "./layout.view.js";
import type { PageTexts } from "./login-page.view.js";

/** Where the hand-off script is served (portal-handoff.routes.ts). */
export const HANDOFF_SCRIPT_PATH = "/portal/assets/handoff.js";

export function handoffPage(p: { texts: PageTexts; nonce: string; url: string; fields: [string, string][] }): string {
  const body = html`<h1>Connecting you</h1>
<p role="status">Connecting you to ${p.texts.ssid || "the WiFi"}.</p>
<form id="handoff" method="post" action="${p.url}">
${p.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit">Continue</button></form>
<script nonce="${p.nonce}" src="${HANDOFF_SCRIPT_PATH}"></script>`;
  return layout({ title: p.texts.title || "Connecting", theme: p.texts.theme, nonce: p.nonce, footer: p.texts.footer, logo: p.texts.logo, body });
}
