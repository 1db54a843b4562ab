/** Message templates: fields, fallbacks, unknown fields, and the choice of a language for a guest. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { languageCode, pickLanguage, renderTemplate, templateValues, unknownFields } from "../../../src/modules/messages/templates.js";

const values = templateValues({ full_name: "Ada King Lovelace", email: "ada@example.org", phone_number: "" }, { name: "Corner Cafe", town: "Bristol" }, "");

describe("message templates", () => {
  it("fills fields, takes the fallback of an empty one, leaves text alone", () => {
    assert.equal(renderTemplate("Hi {{first_name}} {{ last_name }} at {{location_name}}, {{location_town}}", values), "Hi Ada King Lovelace at Corner Cafe, Bristol");
    assert.equal(renderTemplate("Call {{phone_number|us}}; {{review_url|}}!", values), "Call us; !");
    assert.equal(renderTemplate("{not a field} {{{first_name}}}", values), "{not a field} {Ada}");
  });

  it("names the unknown fields, once each", () => {
    assert.deepEqual(unknownFields("{{first_name}} {{nickname}} {{nickname|x}} {{password}}"), ["nickname", "password"]);
    assert.deepEqual(unknownFields("{{first_name|friend}} {{review_url}}"), []);
  });

  it("chooses the guest's language: region, then language, else none", () => {
    assert.equal(languageCode("pt_BR"), "pt-br");
    assert.equal(languageCode("not a locale"), "");
    assert.equal(pickLanguage("fr_CA", ["fr-ca", "fr"]), "fr-ca");
    assert.equal(pickLanguage("fr_FR", ["fr-ca", "fr"]), "fr");
    assert.equal(pickLanguage("de_DE", ["fr"]), undefined);
    assert.equal(pickLanguage("", ["fr"]), undefined);
  });
});
