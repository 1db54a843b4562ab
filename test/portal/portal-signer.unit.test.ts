import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { HmacSha256, PortalSigner } from "../../src/portal/portal-signer.js";

describe("HmacSha256", () => {
  it("gives createHmac's HMAC-SHA256 for keys of 0 to 64 bytes and texts of every kind", () => {
    const texts = [
      "",
      "a",
      "x".repeat(55),
      "x".repeat(56),
      "x".repeat(64),
      "eyJ2IjoxLCJleHAiOjE3OTAwMDAwMDB9",
      "Grüße aus Köln, 東京, 🙂",
      // Longer than the scratch buffer takes: the createHmac path.
      "y".repeat(5000),
      "🙂".repeat(1400),
      randomBytes(600).toString("latin1"),
    ];
    for (let keyLength = 0; keyLength <= 64; keyLength += 1) {
      const key = randomBytes(keyLength);
      const mac = new HmacSha256(key);
      for (const text of texts) {
        assert.equal(mac.base64url(text), createHmac("sha256", key).update(text, "utf8").digest("base64url"), `key ${keyLength} bytes, text ${text.length} chars`);
      }
    }
  });

  it("keeps no trace of a longer text in the next one", () => {
    const key = randomBytes(32);
    const mac = new HmacSha256(key);
    mac.base64url("z".repeat(900));
    assert.equal(mac.base64url("short"), createHmac("sha256", key).update("short").digest("base64url"));
  });

  it("refuses a key longer than one block", () => {
    assert.throws(() => new HmacSha256(randomBytes(65)), /longer than one block/);
  });
});

describe("PortalSigner", () => {
  it("seals and opens, and refuses a tampered body, a tampered MAC and another purpose", () => {
    const signer = new PortalSigner("portal-secret-for-tests");
    const token = signer.seal("device", { v: 1, loc: 7, g: 42, exp: 2_000_000_000 });
    assert.deepEqual(signer.open("device", token), { v: 1, loc: 7, g: 42, exp: 2_000_000_000 });
    const [body, mac] = token.split(".");
    assert.equal(signer.open("device", `${body}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`), undefined);
    assert.equal(signer.open("device", `${Buffer.from('{"v":1,"loc":7,"g":43}').toString("base64url")}.${mac}`), undefined);
    assert.equal(signer.open("page-state", token), undefined);
    assert.equal(new PortalSigner("another-secret-entirely").open("device", token), undefined);
  });

  it("makes the MAC each purpose's derived key gives with createHmac", () => {
    const secret = "portal-secret-for-tests";
    const key = createHmac("sha256", Buffer.from(secret)).update("guestwifi-portal:sms-code").digest();
    assert.equal(new PortalSigner(secret).mac("sms-code", "3:+4915112345678:123456"), createHmac("sha256", key).update("3:+4915112345678:123456").digest("base64url"));
  });
});
