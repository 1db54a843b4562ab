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
  const t = p.texts.tr.t;
  const body = html`<h1>${t("handoff.heading")}</h1>
<p role="status">${t("handoff.status", { named: p.texts.ssid ? "yes" : "no", ssid: p.texts.ssid })}</p>
<form id="handoff" method="post" action="${p.url}">
${p.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit">${t("handoff.button")}</button></form>
<script nonce="${p.nonce}" src="${HANDOFF_SCRIPT_PATH}"></script>`;
  return layout({ tr: p.texts.tr, title: p.texts.title.text || t("handoff.title"), theme: p.texts.theme, nonce: p.nonce, footer: p.texts.footer, logo: p.texts.logo, body });
}
