/** Accept-Language (RFC 9110 12.5.4) and RFC 4647 lookup. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LANGUAGE_TAGS } from "../../src/i18n/languages.js";
import { acceptedRanges, languageNegotiator, lookupRange, negotiateLanguage } from "../../src/i18n/negotiate.js";
import { splitLangParam } from "../../src/portal/portal-language.js";

const pick = (header: string | undefined) => negotiateLanguage(header, LANGUAGE_TAGS, "en");

describe("language negotiation", () => {
  it("orders ranges by weight, keeps the client's order among equals, drops q=0, * and junk", () => {
    assert.deepEqual(acceptedRanges("da, en-gb;q=0.8, en;q=0.7"), ["da", "en-gb", "en"]);
    assert.deepEqual(acceptedRanges("fr;q=0.5, de;q=0.5, es"), ["es", "fr", "de"]);
    assert.deepEqual(acceptedRanges("fr;q=0, *;q=0.1, it ; q=0.9, <script>, en;q=2, de;q=1.5, es;q=0.1234"), ["it"]);
    assert.deepEqual(acceptedRanges(""), []);
    assert.deepEqual(acceptedRanges(undefined), []);
  });

  it("looks each range up by shortening it, in order of preference", () => {
    assert.equal(pick("de-CH-1996, fr;q=0.5"), "de");
    assert.equal(pick("pt-BR,pt;q=0.9,en;q=0.8"), "pt");
    assert.equal(pick("da, sv;q=0.9, nl;q=0.8"), "nl");
    assert.equal(pick("fr;q=0, es;q=0.4, en;q=0.3"), "es");
    assert.equal(pick("da"), "en");
    assert.equal(pick(undefined), "en");
    assert.equal(pick("AR-eg"), "ar");
    assert.equal(lookupRange("zh-Hans-CN-x-private", LANGUAGE_TAGS), "zh-Hans");
    assert.equal(lookupRange("en-a-bbb-x-a-ccc", ["en-a-bbb", "en"]), "en-a-bbb");
    assert.equal(lookupRange("zh-Hant-CN-x-private1-private2", ["zh-Hant-CN", "zh"]), "zh-Hant-CN");
  });

  it("gives Simplified Chinese to zh, zh-CN and zh-SG readers, not to zh-TW ones", () => {
    assert.equal(pick("zh-CN,zh;q=0.9"), "zh-Hans");
    assert.equal(pick("zh"), "zh-Hans");
    assert.equal(pick("zh-SG"), "zh-Hans");
    assert.equal(pick("zh-Hans-HK"), "zh-Hans");
    assert.equal(pick("zh-TW, ja;q=0.5"), "ja");
    assert.equal(pick("zh-Hant"), "en");
  });

  it("a negotiator that remembers answers gives the same ones, asked again, past its size, and for long values", () => {
    const remembering = languageNegotiator(LANGUAGE_TAGS, 4);
    const headers = ["de-CH-1996, fr;q=0.5", "da", "zh-TW, ja;q=0.5", "pt-BR,pt;q=0.9", "AR-eg", "", "fr;q=0, es;q=0.4", `${"x-".repeat(200)}it`, "da, nl;q=0.1"];
    for (let round = 0; round < 3; round++) {
      for (const h of headers) assert.equal(remembering(h) ?? "en", pick(h), `${h} (round ${round})`);
    }
    assert.equal(remembering(undefined), undefined);
  });

  it("splits the switcher's lang off an address, with or without one, keeping every other item byte for byte", () => {
    assert.deepEqual(splitLangParam("/portal/l/a?res=notyet&mac=AA-BB&md=X1"), { url: "/portal/l/a?res=notyet&mac=AA-BB&md=X1", query: "res=notyet&mac=AA-BB&md=X1", lang: undefined });
    assert.deepEqual(splitLangParam("/portal/l/a?res=notyet&lang=de&md=X1"), { url: "/portal/l/a?res=notyet&md=X1", query: "res=notyet&md=X1", lang: "de" });
    assert.deepEqual(splitLangParam("/portal/l/a?slang=x&lang=xx"), { url: "/portal/l/a?slang=x&lang=xx", query: "slang=x&lang=xx", lang: undefined });
    assert.deepEqual(splitLangParam("/portal/l/a?lang=ZH-hans"), { url: "/portal/l/a", query: "", lang: "zh-Hans" });
    assert.deepEqual(splitLangParam("/portal/l/a?"), { url: "/portal/l/a", query: "", lang: undefined });
    assert.deepEqual(splitLangParam("/portal/l/a"), { url: "/portal/l/a", query: "", lang: undefined });
  });
});
