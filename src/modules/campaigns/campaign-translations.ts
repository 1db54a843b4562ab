/**
 * A campaign's texts in its other languages (create-or-update-campaign `translations`): an object,
 * or its JSON text, of shipped language tags to the translated texts; checked key by key so that a
 * 400 names what is wrong. Also the check of the campaign's colours against WCAG's 4.5:1.
 */
import { LANGUAGE_TAGS, shippedLanguage } from "../../i18n/languages.js";
import { type CampaignTranslation, TRANSLATED_FIELDS } from "./campaign-payload.js";

/** Longest text of each field, as for the default language's own fields. */
export const TRANSLATED_MAX: Record<(typeof TRANSLATED_FIELDS)[number], number> = {
  title_text: 255,
  footer_text: 1000,
  custom_terms: 20000,
  marketing_text: 1000,
  button_text: 60,
};

export function parseTranslations(raw: unknown): { translations: Record<string, CampaignTranslation> } | { sentences: string[] } | undefined {
  if (raw === undefined) return undefined;
  let value = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return { translations: {} };
    try {
      value = JSON.parse(raw);
    } catch {
      return { sentences: ["The translations must be a JSON object of language codes to texts."] };
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { sentences: ["The translations must be a JSON object of language codes to texts."] };
  const sentences: string[] = [];
  const translations: Record<string, CampaignTranslation> = {};
  for (const [key, texts] of Object.entries(value as Record<string, unknown>)) {
    const lang = shippedLanguage(key)?.tag;
    if (!lang) {
      sentences.push(`The translations key "${key.slice(0, 20)}" is not one of the languages ${LANGUAGE_TAGS.join(", ")}.`);
      continue;
    }
    if (!texts || typeof texts !== "object" || Array.isArray(texts)) {
      sentences.push(`The translations of ${lang} must be an object of ${TRANSLATED_FIELDS.join(", ")}.`);
      continue;
    }
    const t: CampaignTranslation = {};
    for (const [field, text] of Object.entries(texts as Record<string, unknown>)) {
      const f = TRANSLATED_FIELDS.find((x) => x === field);
      if (!f) sentences.push(`The translations of ${lang} may only hold ${TRANSLATED_FIELDS.join(", ")}.`);
      else if (typeof text !== "string") sentences.push(`The translations ${lang}.${f} must be a string.`);
      else if ([...text].length > TRANSLATED_MAX[f]) sentences.push(`The translations ${lang}.${f} may not be greater than ${TRANSLATED_MAX[f]} characters.`);
      else if (text.trim() !== "") t[f] = f === "marketing_text" || f === "button_text" ? text.trim() : text;
    }
    translations[lang] = t;
  }
  return sentences.length > 0 ? { sentences } : { translations };
}

function luminance(hex: string): number {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** 6-digit hex without "#" (3 digits doubled). */
function six(hex: string): string {
  const v = hex.replace(/^#/, "");
  return v.length === 3 ? [...v].map((c) => c + c).join("") : v;
}

/** A warning when text and background colours fall short of WCAG 2.1's 4.5:1 (the page then shows black or white text instead). */
export function contrastWarning(text: string, background: string): string | undefined {
  const [a, b] = [six(text), six(background)];
  if (!/^[0-9a-fA-F]{6}$/.test(a) || !/^[0-9a-fA-F]{6}$/.test(b)) return undefined;
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  const ratio = (hi + 0.05) / (lo + 0.05);
  if (ratio >= 4.5) return undefined;
  return `The text_color ${a} on the background ${b} has a contrast of ${ratio.toFixed(2)}:1, below the 4.5:1 WCAG 2.1 AA asks for: the login page shows its text in black or white instead.`;
}
