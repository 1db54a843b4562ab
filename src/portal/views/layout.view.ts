/** The page shell every portal page shares: language, viewport, the nonce'd stylesheet, footer. */
import { type SafeHtml, html, trusted } from "../../http/html.js";
import { portalCss } from "./portal-css.js";
import type { Theme } from "./theme.js";

/** A campaign's logo: where the portal serves it (never the image itself) and its alt text. */
export interface PageLogo {
  src: string;
  alt: string;
}

export interface LayoutInput {
  title: string;
  theme: Theme;
  /** CSP nonce of this response, for the one style element. */
  nonce: string;
  footer: string;
  body: SafeHtml;
  /** Shown above the page's heading. */
  logo?: PageLogo | null;
  /** Where the browser goes next on its own (a meta refresh: a navigation of its own, not a redirect of the form post). */
  refreshTo?: string;
}

export function layout(p: LayoutInput): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${p.refreshTo ? html`<meta http-equiv="refresh" content="0;url=${p.refreshTo}">` : ""}
<title>${p.title}</title>
<style nonce="${p.nonce}">${trusted(portalCss(p.theme))}</style>
</head>
<body>
<main>
${p.logo ? html`<img class="logo" src="${p.logo.src}" alt="${p.logo.alt}">` : ""}
${p.body}
</main>
${p.footer ? html`<footer><p>${p.footer}</p></footer>` : ""}
</body>
</html>
`.value;
}
