/** The page shell every portal page shares: language and direction, viewport, the nonce'd stylesheet, the language switcher, footer. */
import { type SafeHtml, html, trusted } from "../../http/html.js";
import type { Translator } from "../../i18n/catalogue.js";
import { LANGUAGES } from "../../i18n/languages.js";
import { portalCss } from "./portal-css.js";
import type { Theme } from "./theme.js";

/** A campaign's logo: where the portal serves it (never the image itself) and its alt text. */
export interface PageLogo {
  src: string;
  alt: string;
}

/** A campaign text and the language it is written in, when that is not the page's. */
export interface CampaignText {
  text: string;
  lang?: string;
}

export interface LayoutInput {
  tr: Translator;
  title: string;
  theme: Theme;
  /** CSP nonce of this response, for the one style element. */
  nonce: string;
  footer: CampaignText;
  body: SafeHtml;
  /** Shown above the page's heading. */
  logo?: PageLogo | null;
  /** Where the browser goes next on its own (a meta refresh: a navigation of its own, not a redirect of the form post). */
  refreshTo?: string;
  /**
   * The language switcher's links repeat the page's own query (the gateway's parameters, as the
   * gateway wrote them) followed by `lang=`: this is that query with its "&", or "" (or a slot the
   * template cache fills per request). Null: no switcher (a page answering a form post).
   */
  switcherQuery?: string | null;
}

/** `lang` attribute for a campaign text written in another language than the page. */
export function langAttr(text: CampaignText): SafeHtml | string {
  return text.lang ? html` lang="${text.lang}"` : "";
}

function switcher(tr: Translator, query: string): SafeHtml {
  return html`<nav class="langs" aria-label="${tr.t("page.languages")}"><ul>${LANGUAGES.map((l) =>
    l.tag === tr.lang
      ? html`<li><a href="?${query}lang=${l.tag}" lang="${l.tag}" hreflang="${l.tag}" aria-current="true">${l.autonym}</a></li>`
      : html`<li><a href="?${query}lang=${l.tag}" lang="${l.tag}" hreflang="${l.tag}">${l.autonym}</a></li>`,
  )}</ul></nav>`;
}

export function layout(p: LayoutInput): string {
  return html`<!doctype html>
<html lang="${p.tr.lang}" dir="${p.tr.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${p.refreshTo ? html`<meta http-equiv="refresh" content="0;url=${p.refreshTo}">` : ""}
<title>${p.title}</title>
<style nonce="${p.nonce}">${trusted(portalCss(p.theme))}</style>
</head>
<body>
${p.switcherQuery !== undefined && p.switcherQuery !== null ? switcher(p.tr, p.switcherQuery) : ""}
<main>
${p.logo ? html`<img class="logo" src="${p.logo.src}" alt="${p.logo.alt}">` : ""}
${p.body}
</main>
${p.footer.text ? html`<footer><p${langAttr(p.footer)}>${p.footer.text}</p></footer>` : ""}
</body>
</html>
`.value;
}
