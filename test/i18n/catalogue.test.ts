/**
 * The catalogues under locales/: every shipped language has a file, every file has exactly the
 * keys of English, every message parses as ICU MessageFormat (template.* keys as message
 * templates), and each uses the same arguments and tags as the English one (a translation that
 * drops {seconds} or <terms> would show a hole on the page).
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { IntlMessageFormat } from "intl-messageformat";
import { LOCALES_DIR, TEMPLATE_KEY_PREFIX, readCatalogue, translate, translator } from "../../src/i18n/catalogue.js";
import { LANGUAGES, LANGUAGE_TAGS } from "../../src/i18n/languages.js";
import { TEMPLATE_FIELDS, unknownFields } from "../../src/modules/messages/templates.js";

type Node = { type: number; value?: string; options?: Record<string, { value: Node[] }>; children?: Node[] };

/** Argument and tag names a message uses, and the plural categories it needs in `lang` (all of them). */
function namesOf(nodes: Node[], out = new Set<string>()): Set<string> {
  for (const n of nodes) {
    // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag (formatjs's TYPE enum).
    if ([1, 2, 3, 4, 5, 6].includes(n.type) && n.value) out.add(`{${n.value}}`);
    if (n.type === 8 && n.value) out.add(`<${n.value}>`);
    if (n.options) for (const o of Object.values(n.options)) namesOf(o.value, out);
    if (n.children) namesOf(n.children, out);
  }
  return out;
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*(?:\|[^{}]*)?\}\}/g;
const english = readCatalogue("en");

describe("message catalogues", () => {
  it("has a catalogue for every shipped language, and no other", () => {
    const files = readdirSync(fileURLToPath(LOCALES_DIR)).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
    assert.deepEqual(files, [...LANGUAGE_TAGS].sort());
    assert.ok(LANGUAGES.length >= 12);
  });

  for (const tag of LANGUAGE_TAGS) {
    it(`${tag}: every key of English, no other, every message parses with the same arguments`, () => {
      const texts = readCatalogue(tag);
      assert.deepEqual(Object.keys(english).filter((k) => !(k in texts)), [], "missing keys");
      assert.deepEqual(Object.keys(texts).filter((k) => !(k in english)), [], "keys English does not have");
      for (const [key, text] of Object.entries(texts)) {
        assert.equal(typeof text, "string", key);
        assert.notEqual(text.trim(), "", `${key} is empty`);
        if (key.startsWith(TEMPLATE_KEY_PREFIX)) {
          assert.deepEqual(unknownFields(text), [], `${key}: fields are ${TEMPLATE_FIELDS.join(", ")}`);
          assert.equal(text.replace(PLACEHOLDER, "").match(/\{\{|\}\}/), null, `${key}: a placeholder is not closed`);
          const fields = (s: string) => [...new Set([...s.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();
          assert.deepEqual(fields(text), fields(english[key]), `${key}: the fields of English`);
          continue;
        }
        let message: IntlMessageFormat;
        try {
          message = new IntlMessageFormat(text, tag);
        } catch (err) {
          assert.fail(`${tag} ${key} does not parse: ${(err as Error).message}`);
        }
        const ours = namesOf(message.getAst() as Node[]);
        const theirs = namesOf(new IntlMessageFormat(english[key], "en").getAst() as Node[]);
        assert.deepEqual([...ours].sort(), [...theirs].sort(), `${tag} ${key}: arguments and tags of English`);
      }
    });
  }

  it("formats plurals by each language's rules", () => {
    assert.equal(translate("en", "voucher.minutes", { minutes: 1 }), "1 minute");
    assert.equal(translate("en", "voucher.minutes", { minutes: 90 }), "90 minutes");
    assert.equal(translate("pl", "voucher.minutes", { minutes: 2 }), "2 minuty");
    assert.equal(translate("pl", "voucher.minutes", { minutes: 5 }), "5 minut");
    assert.equal(translate("pl", "voucher.minutes", { minutes: 22 }), "22 minuty");
    assert.equal(translate("ar", "voucher.minutes", { minutes: 2 }), "دقيقتان");
    assert.equal(translate("ar", "voucher.minutes", { minutes: 3 }), "3 دقائق");
    assert.equal(translate("ja", "voucher.minutes", { minutes: 3 }), "3 分");
    assert.equal(translate("de", "connected.status", { named: "yes", ssid: "Cafe" }), "Sie sind mit Cafe verbunden. Sie können diese Seite schließen.");
    assert.equal(translate("de", "connected.status", { named: "no", ssid: "" }), "Sie sind mit dem WLAN verbunden. Sie können diese Seite schließen.");
  });

  it("gives the default language's translator for a tag it does not ship", () => {
    assert.equal(translator("xx").lang, "en");
    assert.equal(translator("ZH-hans").lang, "zh-Hans");
    assert.equal(translator("ar").dir, "rtl");
    assert.equal(translator("fr").t("page.welcome"), "Bienvenue");
  });
});
