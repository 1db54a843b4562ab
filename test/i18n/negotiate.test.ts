/** Accept-Language (RFC 9110 12.5.4) and RFC 4647 lookup. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LANGUAGE_TAGS } from "../../src/i18n/languages.js";
import { acceptedRanges, lookupRange, negotiateLanguage } from "../../src/i18n/negotiate.js";

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
});
