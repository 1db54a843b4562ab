/**
 * The printable sheet of a batch: a self-contained HTML page of cards, one code each, laid out in
 * millimetres for A4 or in inches for Letter (CSS @page), so that a browser's print gives whole cards
 * on each page. Codes are set large in a monospaced face with a gap between their two halves.
 */
import type { Translator } from "../../i18n/catalogue.js";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SheetInput {
  /** The language of the cards' texts. */
  tr: Translator;
  title: string;
  /** e.g. "60 minutes", "2 devices" */
  details: string[];
  codes: string[];
  paper: "a4" | "letter";
  expires: string;
}

export function voucherSheetHtml(s: SheetInput): string {
  // Three columns of cards; a card never breaks across pages.
  const page = s.paper === "letter" ? "size: letter; margin: 0.5in;" : "size: A4; margin: 12mm;";
  const cards = s.codes
    .map(
      (code) => `<div class="card"><p class="t">${esc(s.title)}</p><p class="code">${esc(code)}</p>
<p class="d">${s.details.map(esc).join(" · ")}</p>${s.expires ? `<p class="d">${esc(s.tr.t("voucher.validUntil", { date: s.expires }))}</p>` : ""}
<p class="d">${esc(s.tr.t("voucher.howTo"))}</p></div>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="${s.tr.lang}" dir="${s.tr.dir}"><head><meta charset="utf-8"><title>${esc(s.tr.t("voucher.sheetTitle", { title: s.title, count: s.codes.length }))}</title>
<style>
@page { ${page} }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; color: #000; background: #fff; }
.sheet { display: grid; grid-template-columns: repeat(3, 1fr); gap: 4mm; }
.card { border: 0.3mm dashed #555; padding: 4mm; break-inside: avoid; page-break-inside: avoid; text-align: center; }
.t { margin: 0 0 2mm; font-size: 10pt; }
.code { margin: 0 0 2mm; font: 700 17pt/1.2 "DejaVu Sans Mono", "Courier New", monospace; letter-spacing: 0.08em; white-space: nowrap; }
.d { margin: 0; font-size: 8pt; }
@media screen { body { padding: 12mm; max-width: ${s.paper === "letter" ? "8.5in" : "210mm"}; margin: auto; } }
</style></head>
<body><main class="sheet" data-paper="${s.paper}">
${cards}
</main></body></html>
`;
}
