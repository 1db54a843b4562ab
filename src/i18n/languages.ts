/**
 * The languages the service ships built-in texts in (locales/<tag>.json), each with its own name
 * (what the language switcher shows) and its writing direction. Adding one is adding its catalogue
 * and a line here (docs/languages.md).
 */

export interface ShippedLanguage {
  /** BCP 47 tag, as the catalogue file is named and as <html lang> carries it. */
  tag: string;
  /** The language's name in itself. */
  autonym: string;
  dir: "ltr" | "rtl";
}

export const LANGUAGES: readonly ShippedLanguage[] = [
  { tag: "en", autonym: "English", dir: "ltr" },
  { tag: "es", autonym: "Español", dir: "ltr" },
  { tag: "fr", autonym: "Français", dir: "ltr" },
  { tag: "de", autonym: "Deutsch", dir: "ltr" },
  { tag: "it", autonym: "Italiano", dir: "ltr" },
  { tag: "pt", autonym: "Português", dir: "ltr" },
  { tag: "nl", autonym: "Nederlands", dir: "ltr" },
  { tag: "pl", autonym: "Polski", dir: "ltr" },
  { tag: "tr", autonym: "Türkçe", dir: "ltr" },
  { tag: "ar", autonym: "العربية", dir: "rtl" },
  { tag: "zh-Hans", autonym: "简体中文", dir: "ltr" },
  { tag: "ja", autonym: "日本語", dir: "ltr" },
];

export const DEFAULT_LANGUAGE = "en";

export const LANGUAGE_TAGS: readonly string[] = LANGUAGES.map((l) => l.tag);

const byLower = new Map(LANGUAGES.map((l) => [l.tag.toLowerCase(), l]));

/** The shipped language of exactly this tag (any case), or undefined. */
export function shippedLanguage(tag: string): ShippedLanguage | undefined {
  return byLower.get(tag.toLowerCase());
}

export function directionOf(tag: string): "ltr" | "rtl" {
  return shippedLanguage(tag)?.dir ?? (/^(ar|he|fa|ur|ps|yi|dv|ckb)(-|$)/i.test(tag) ? "rtl" : "ltr");
}
