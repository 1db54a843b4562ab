import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildBuckets, sumIntoBuckets } from "../../../src/modules/analytics/buckets.js";

describe("analytics buckets", () => {
  it("lists every day of the range for DAY, across a month end and a leap day", () => {
    const b = buildBuckets("2028-02-27", "2028-03-02", "DAY");
    assert.deepEqual(b.categories, ["2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01", "2028-03-02"]);
  });

  it("starts ISO weeks on Monday, the first labelled by from_date", () => {
    // 2026-02-25 is a Wednesday; 2026-03-02 and 2026-03-09 are Mondays.
    const b = buildBuckets("2026-02-25", "2026-03-10", "WEEK");
    assert.deepEqual(b.categories, ["2026-02-25", "2026-03-02", "2026-03-09"]);
    assert.equal(b.indexOfDay.get("2026-03-01"), 0, "Sunday closes the first week");
    assert.equal(b.indexOfDay.get("2026-03-02"), 1);
    assert.equal(b.indexOfDay.get("2026-03-10"), 2);
  });

  it("buckets calendar months, the first labelled by from_date", () => {
    const b = buildBuckets("2026-01-15", "2026-03-01", "MONTH");
    assert.deepEqual(b.categories, ["2026-01-15", "2026-02-01", "2026-03-01"]);
  });

  it("sums days into their buckets, series by series, with zeros for empty ones and ignores days outside", () => {
    const b = buildBuckets("2026-02-25", "2026-03-10", "WEEK");
    const perDay = new Map<string, number[]>([
      ["2026-02-25", [2, 1]],
      ["2026-03-01", [3, 0]],
      ["2026-03-10", [4, 5]],
      ["2026-03-11", [100, 100]],
    ]);
    assert.deepEqual(sumIntoBuckets(b, perDay, 2), [
      [5, 0, 4],
      [1, 0, 5],
    ]);
  });
});
