/** The page that sets up "connect automatically" (Passpoint): the device's profile first, the others after, each with its steps. */
import { type SafeHtml, html } from "../../http/html.js";
import type { Translator } from "../../i18n/catalogue.js";
import type { ProfilePlatform } from "../../modules/passpoint/passpoint-profiles.js";
import { layout } from "./layout.view.js";
import { DEFAULT_THEME } from "./message-page.view.js";

const ORDER: ProfilePlatform[] = ["apple", "android", "windows"];

function section(tr: Translator, base: string, platform: ProfilePlatform, first: boolean): SafeHtml {
  const t = tr.t;
  const href = platform === "apple" ? `${base}/apple.mobileconfig` : platform === "android" ? `${base}/android` : `${base}/windows`;
  return html`<section class="method" id="passpoint-${platform}" aria-labelledby="pp-${platform}-h">
<h2 id="pp-${platform}-h">${t(`passpoint.${platform}`)}</h2>
<p>${t(`passpoint.steps.${platform}`)}</p>
<p><a class="${first ? "button" : "secondary"}" href="${href}" data-platform="${platform}">${t("passpoint.install")}</a></p>
</section>`;
}

export function passpointPage(p: { tr: Translator; nonce: string; locationId: number; ssid: string; platform: ProfilePlatform | undefined; inAssistant: boolean }): string {
  const t = p.tr.t;
  const base = `/portal/passpoint/${p.locationId}`;
  const order = p.platform ? [p.platform, ...ORDER.filter((x) => x !== p.platform)] : ORDER;
  const body = html`<h1>${t("passpoint.title")}</h1>
<p>${t("passpoint.offerBody", { ssid: p.ssid })}</p>
${p.inAssistant ? html`<p class="notice" role="status">${t("passpoint.inAssistant")}</p>` : ""}
${order.map((platform, i) => section(p.tr, base, platform, i === 0))}`;
  return layout({ tr: p.tr, title: t("passpoint.title"), theme: DEFAULT_THEME, nonce: p.nonce, footer: { text: "" }, body });
}

/** Windows keeps no password in a WLAN profile: the page shows the credential, the CA and the profile to download. */
export function passpointWindowsPage(p: { tr: Translator; nonce: string; locationId: number; username: string; password: string; expiresAt: string }): string {
  const t = p.tr.t;
  const base = `/portal/passpoint/${p.locationId}`;
  const body = html`<h1>${t("passpoint.windows")}</h1>
<p>${t("passpoint.steps.windows")}</p>
<ol>
<li><a href="${base}/ca.cer" download="ca.cer">${t("passpoint.certificate")}</a></li>
<li><a href="${base}/windows-profile.xml" download="passpoint-wlan-profile.xml">${t("passpoint.profileFile")}</a></li>
</ol>
<dl>
<dt>${t("passpoint.username")}</dt><dd class="ltr"><code id="passpoint-username">${p.username}</code></dd>
<dt>${t("passpoint.password")}</dt><dd class="ltr"><code id="passpoint-password">${p.password}</code></dd>
</dl>
<p>${t("passpoint.validUntil", { date: p.expiresAt.slice(0, 10) })}</p>`;
  return layout({ tr: p.tr, title: t("passpoint.windows"), theme: DEFAULT_THEME, nonce: p.nonce, footer: { text: "" }, body });
}
