/**
 * The printable sheet of a batch: a self-contained HTML page of cards, one code each, laid out in
 * millimetres for A4 or in inches for Letter (CSS @page), so that a browser's print gives whole cards
 * on each page. Codes are set large in a monospaced face with a gap between their two halves.
 */
import type { Translator } from "../../i18n/catalogue.js";
import type { Venue } from "./vouchers.service.js";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SheetInput {
  /** The language of the cards' texts. */
  tr: Translator;
  title: string;
  /** The batch's locations: their names, network names and logo go on every card. */
  venues: Pick<Venue, "name" | "ssid" | "logo">[];
  /** e.g. "60 minutes", "2 devices" */
  details: string[];
  codes: string[];
  paper: "a4" | "letter";
  expires: string;
}

export function voucherSheetHtml(s: SheetInput): string {
  // Three columns of cards; a card never breaks across pages.
  const page = s.paper === "letter" ? "size: letter; margin: 0.5in;" : "size: A4; margin: 12mm;";
  const names = [...new Set(s.venues.map((v) => v.name))];
  const ssids = [...new Set(s.venues.map((v) => v.ssid).filter(Boolean))];
  // The logo is a data URL checked when the campaign was saved (PNG, JPEG or WebP bytes).
  const logo = s.venues.find((v) => v.logo.startsWith("data:image/"))?.logo ?? "";
  const howTo = ssids.length > 0 ? s.tr.t("voucher.howToNetwork", { ssid: ssids.join(" / ") }) : s.tr.t("voucher.howTo");
  const head = `${logo ? `<img class="logo" src="${esc(logo)}" alt="">` : ""}${names.length > 0 ? `<p class="v">${esc(names.join(" · "))}</p>` : ""}`;
  const cards = s.codes
    .map(
      (code) => `<div class="card">${head}<p class="t">${esc(s.title)}</p><p class="code">${esc(code)}</p>
<p class="d">${s.details.map(esc).join(" · ")}</p>${s.expires ? `<p class="d">${esc(s.tr.t("voucher.validUntil", { date: s.expires }))}</p>` : ""}
<p class="d how">${esc(howTo)}</p></div>`,
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
.v { margin: 0 0 1mm; font-size: 11pt; font-weight: 700; }
.logo { display: block; margin: 0 auto 2mm; max-height: 12mm; max-width: 40mm; object-fit: contain; }
.how { margin-top: 1.5mm; }
.code { margin: 0 0 2mm; font: 700 17pt/1.2 "DejaVu Sans Mono", "Courier New", monospace; letter-spacing: 0.08em; white-space: nowrap; }
.d { margin: 0; font-size: 8pt; }
@media screen { body { padding: 12mm; max-width: ${s.paper === "letter" ? "8.5in" : "210mm"}; margin: auto; } }
</style></head>
<body><main class="sheet" data-paper="${s.paper}">
${cards}
</main></body></html>
`;
}
