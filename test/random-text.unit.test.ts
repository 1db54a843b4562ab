import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { READABLE_ALPHABET, randomString } from "../src/random-text.js";

describe("randomString", () => {
  it("draws every character of the alphabet equally often, and nothing else", () => {
    const counts = new Map<string, number>();
    let total = 0;
    for (let i = 0; i < 12_500; i++) {
      const s = randomString(READABLE_ALPHABET, 16);
      assert.equal(s.length, 16);
      for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
      total += s.length;
    }
    assert.deepEqual([...counts.keys()].sort(), [...READABLE_ALPHABET].sort(), "every character, only these");
    // 57 characters: 256 % 57 = 28 of them would be a quarter likelier if bytes were taken modulo 57
    // without skipping the top ones. Expected 3,509 each, standard deviation about 59.
    const expected = total / READABLE_ALPHABET.length;
    for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.12, `${c}: ${n} against ${expected.toFixed(0)}`);
  });

  it("works with alphabets of any size from 2 to 256", () => {
    for (const alphabet of ["ab", "0123456789", String.fromCharCode(...Array.from({ length: 256 }, (_, i) => 0x100 + i))]) {
      const s = randomString(alphabet, 40);
      assert.equal(s.length, 40);
      for (const c of s) assert.ok(alphabet.includes(c));
    }
  });
});
