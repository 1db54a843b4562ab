/** The values of a Passpoint configuration: roaming consortium OIs, realm and domain names, usernames. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dnsName, isPasspointUsername, parseRoamingConsortium } from "../../../src/modules/passpoint/passpoint-values.js";
import { hashPassword, passwordMatches } from "../../../src/modules/passpoint/passpoint-credentials.service.js";
import { platformOf } from "../../../src/modules/passpoint/passpoint-profiles.js";

describe("passpoint values", () => {
  it("takes OIs of 3 or 5 octets in hex, with dashes or colons, in upper case and once each", () => {
    assert.deepEqual(parseRoamingConsortium("5a03ba0000, 00-40-96,004096 , 5A:03:BA:08:00"), { ois: ["5A03BA0000", "004096", "5A03BA0800"] });
    assert.deepEqual(parseRoamingConsortium(""), { ois: [] });
    for (const bad of ["5A03BA00", "0040", "5A03BA00000000", "00409G", "xyz"]) {
      const r = parseRoamingConsortium(`004096,${bad}`);
      assert.ok("problem" in r, bad);
      assert.match(r.problem, /3 or 5 octets/);
    }
    assert.ok("problem" in parseRoamingConsortium(Array.from({ length: 13 }, (_, i) => (0x100000 + i).toString(16)).join(",")));
  });

  it("takes realms and domains that are DNS names of two labels or more", () => {
    assert.equal(dnsName(" WiFi.Example.COM. "), "wifi.example.com");
    for (const bad of ["localhost", "-a.example.com", "a..b", "exa mple.com", "a_b.example.com", `${"a".repeat(64)}.com`]) assert.equal(dnsName(bad), undefined, bad);
  });

  it("recognises Passpoint usernames only with the prefix and a realm", () => {
    assert.equal(isPasspointUsername("pp-abc@example.com"), true);
    assert.equal(isPasspointUsername("pp-abc"), false);
    assert.equal(isPasspointUsername("gw-abc@example.com"), false);
    assert.equal(isPasspointUsername("02:00:00:00:00:01"), false);
  });

  it("checks a password against its salted hash, and nothing else", () => {
    const h = hashPassword("correct horse");
    assert.match(h, /^hs256\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    assert.notEqual(hashPassword("correct horse"), h, "a fresh salt each time");
    assert.equal(passwordMatches(h, "correct horse"), true);
    assert.equal(passwordMatches(h, "correct horsE"), false);
    assert.equal(passwordMatches("md5$x$y", "correct horse"), false);
  });

  it("tells the platform from the browser's User-Agent", () => {
    assert.equal(platformOf("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"), "apple");
    assert.equal(platformOf("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36"), "android");
    assert.equal(platformOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"), "windows");
    assert.equal(platformOf("Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0"), undefined);
  });
});
