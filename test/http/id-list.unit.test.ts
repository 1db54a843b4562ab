import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseIdList } from "../../src/http/validation.js";

/** The rules as the API documents them, item by item (what parseIdList's one-pass reading must agree with). */
function byTheRules(value: string, max: number): number[] | "format" | "too many" {
  const ids: number[] = [];
  for (const part of value.split(",")) {
    const p = part.trim();
    if (!/^\d{1,10}$/.test(p) || Number(p) < 1 || Number(p) > 2147483647) return "format";
    if (!ids.includes(Number(p))) ids.push(Number(p));
  }
  return ids.length > max ? "too many" : ids;
}

function outcome(value: string, max: number): number[] | "format" | "too many" {
  const r = parseIdList(value, "location_ids", max);
  if ("ids" in r) return r.ids;
  return r.sentence.includes("more than") ? "too many" : "format";
}

describe("id lists", () => {
  it("reads lists as the rules say, edge cases and all", () => {
    const cases = [
      "1", "1,2,3", "1, 2 ,3", " 7 ", "\t7\t", "3,3,1,3", "007", "0", "1,0", "-1", "+1", "1.0", "1e3", "", " ", ",", "1,", ",1", "1,,2",
      "1 2", "2147483647", "2147483648", "9999999999", "00000000001", "12345678901", "1,2,3,4,5,6,7,8,9,10", "1,2,3,4,5,6,7,8,9,10,11",
      "1,2,3,4,5,6,7,8,9,10,10", "\u00a01\u00a0", "1\n", "\r\n1", "1\u2003,2", "١", "1a", "a", "0x10", "1;2",
    ];
    for (const value of cases) assert.deepEqual(outcome(value, 10), byTheRules(value, 10), JSON.stringify(value));
  });

  it("agrees with the rules on random texts of digits, separators and spaces", () => {
    const alphabet = ["0", "1", "2", "9", ",", ",", " ", "\t", "\u00a0", "\n", "x", "2147483647", "2147483648"];
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let n = 0; n < 20_000; n++) {
      let value = "";
      const length = next() % 14;
      for (let i = 0; i < length; i++) value += alphabet[next() % alphabet.length];
      assert.deepEqual(outcome(value, 4), byTheRules(value, 4), JSON.stringify(value));
    }
  });
});
