/**
 * The portal's whole stylesheet, inlined under a CSP nonce: one request on a weak link, no
 * 'unsafe-inline'. Colours come in as custom properties (validated hex, see theme.ts).
 */
import type { Theme } from "./theme.js";

const CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:28rem;padding:1.5rem 1rem 1rem;flex:1;overflow-wrap:anywhere}
.logo{display:block;max-width:min(100%,16rem);max-height:6rem;width:auto;height:auto;margin:0 auto 1rem;object-fit:contain}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .5rem}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
.ssid{margin:0 0 1rem;opacity:.85}
section.method{margin:0 0 1rem;padding:1rem;border:1px solid var(--fg);border-radius:.75rem}
section.method h2{margin-top:0}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input[type=text],input[type=email],input[type=tel]{display:block;width:100%;min-height:2.75rem;padding:.5rem .75rem;font:inherit;color:#111;background:#fff;border:2px solid #5f6b7a;border-radius:.5rem}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.check input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none}
button{display:block;width:100%;min-height:2.75rem;margin:.75rem 0 0;padding:.5rem 1rem;font:inherit;font-weight:700;color:var(--bg);background:var(--fg);border:2px solid var(--fg);border-radius:.5rem;cursor:pointer}
button.secondary{color:var(--fg);background:transparent}
.social form+form button{margin-top:.5rem}
:focus-visible{outline:3px solid var(--fg);outline-offset:3px}
input:focus-visible{outline-color:#1a56db}
.notice{padding:.75rem;border:2px solid var(--fg);border-radius:.5rem;font-weight:600}
.error{display:block;margin:.25rem 0 0;font-weight:700}
.terms{font-size:.9rem}
a{color:inherit}
footer{width:100%;max-width:28rem;padding:1rem;font-size:.85rem;text-align:center;overflow-wrap:anywhere}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.langs{width:100%;max-width:28rem;padding:.5rem 1rem 0;font-size:.9rem}
.langs ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem;margin:0;padding:0;list-style:none}
.langs a{display:inline-block;padding:.25rem 0;min-height:1.5rem}
.langs a[aria-current]{font-weight:700;text-decoration:none}
input[type=email],input[type=tel],.ltr{direction:ltr;text-align:start}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}`;

export function portalCss(theme: Theme): string {
  return `:root{--fg:${theme.text};--bg:${theme.background}}\n${CSS}`;
}
