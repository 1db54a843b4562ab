/**
 * The built-in texts: one JSON catalogue per shipped language under locales/ (flat keys to ICU
 * MessageFormat messages, formatted by intl-messageformat with the language's plural rules), read
 * once, on a language's first use. A translator edits only those files (docs/languages.md); test/i18n checks that
 * every language has every key and that every message parses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import { PROJECT_ROOT } from "../project-root.js";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, directionOf, shippedLanguage } from "./languages.js";

export type MessageValues = Record<string, PrimitiveType>;

/** Where the catalogues are: locales/ of the installation, whether src/ or the compiled dist/server/ runs. */
export const LOCALES_DIR = pathToFileURL(`${join(PROJECT_ROOT, "locales")}/`);

/** Keys whose texts are message templates ({{field}} placeholders, modules/messages/templates.ts), not ICU messages. */
export const TEMPLATE_KEY_PREFIX = "template.";

export function readCatalogue(tag: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`${tag}.json`, LOCALES_DIR), "utf8")) as Record<string, string>;
}

/** Each shipped language's catalogue, read on its first use: a start reads none (issue 22), a page in one language reads one. */
const catalogues = new Map<string, Record<string, string>>();
const shipped = new Set<string>(LANGUAGE_TAGS);

function catalogueOf(tag: string): Record<string, string> | undefined {
  let c = catalogues.get(tag);
  if (!c && shipped.has(tag)) {
    c = readCatalogue(tag);
    catalogues.set(tag, c);
  }
  return c;
}
/** Compiled messages, and the text of those without arguments, per language and key. */
const compiled = new Map<string, Map<string, IntlMessageFormat>>();
const plain = new Map<string, Map<string, string>>();

/** The raw text of `key` in `tag` (English when the language lacks it, the key itself when nobody has it). */
export function rawText(tag: string, key: string): string {
  return catalogueOf(tag)?.[key] ?? catalogueOf(DEFAULT_LANGUAGE)?.[key] ?? key;
}

function messageOf(tag: string, key: string): IntlMessageFormat {
  let byKey = compiled.get(tag);
  if (!byKey) {
    byKey = new Map();
    compiled.set(tag, byKey);
  }
  let m = byKey.get(key);
  if (!m) {
    m = new IntlMessageFormat(rawText(tag, key), tag);
    byKey.set(key, m);
  }
  return m;
}

/** The text of `key` in the shipped language `tag`, with its arguments filled. */
export function translate(tag: string, key: string, values?: MessageValues): string {
  if (!values) {
    let byKey = plain.get(tag);
    if (!byKey) {
      byKey = new Map();
      plain.set(tag, byKey);
    }
    let text = byKey.get(key);
    if (text === undefined) {
      text = String(messageOf(tag, key).format());
      byKey.set(key, text);
    }
    return text;
  }
  return String(messageOf(tag, key).format(values));
}

/**
 * A message with markup: `<tag>words</tag>` in the message is handed to `tags[tag]` (which wraps
 * the words, e.g. in a link); the parts come back in order, text parts as strings to be escaped.
 */
export function translateParts<T>(tag: string, key: string, values: MessageValues, tags: Record<string, (chunks: (string | T)[]) => T>): (string | T)[] {
  const out = messageOf(tag, key).format<T>({ ...values, ...tags });
  return Array.isArray(out) ? (out as (string | T)[]) : [out as string | T];
}

/** One language's texts, as a page or a message uses them. */
export interface Translator {
  readonly lang: string;
  readonly dir: "ltr" | "rtl";
  t(key: string, values?: MessageValues): string;
}

const translators = new Map<string, Translator>();

/** The translator of a shipped language (any case); the default language's for any other tag. */
export function translator(tag: string): Translator {
  const lang = shippedLanguage(tag)?.tag ?? DEFAULT_LANGUAGE;
  let tr = translators.get(lang);
  if (!tr) {
    tr = { lang, dir: directionOf(lang), t: (key, values) => translate(lang, key, values) };
    translators.set(lang, tr);
  }
  return tr;
}
