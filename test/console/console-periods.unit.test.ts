/** The overview's grouping of days, the previous period and the byte axis' ticks (console-ui/src/periods.ts). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bucketsOf, byteTickLabel, byteTicks, grainOf, previousRange, sumInto } from "../../console-ui/src/periods.js";

const days = (from: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));

describe("overview periods", () => {
  it("groups by day up to two months, by week up to half a year, then by month", () => {
    assert.deepEqual([grainOf(7), grainOf(62), grainOf(63), grainOf(184), grainOf(185), grainOf(365)], ["day", "day", "week", "week", "month", "month"]);
    const year = bucketsOf(days("2025-11-28", 365), "month");
    assert.equal(year.labels.length, 13, "a year from the 28th touches 13 months");
    assert.deepEqual([year.labels[0], year.labels[12]], ["Nov 2025", "Nov 2026"]);
    const weeks = bucketsOf(days("2026-11-04", 14), "week");
    assert.deepEqual(weeks.labels, ["Week of 2026-11-02", "Week of 2026-11-09", "Week of 2026-11-16"], "weeks start on Monday");
    assert.deepEqual(sumInto(weeks, Array(14).fill(1)), [5, 7, 2]);
  });

  it("puts the previous period of the same length just before", () => {
    assert.deepEqual(previousRange("2026-11-01", "2026-11-30"), { from: "2026-10-02", to: "2026-10-31" });
    assert.deepEqual(previousRange("2024-03-01", "2024-03-01"), { from: "2024-02-29", to: "2024-02-29" });
  });

  it("ticks bytes at round figures of one unit", () => {
    const gb = 1024 ** 3;
    const t = byteTicks(37.4 * gb);
    assert.deepEqual([t.step / gb, t.max / gb, t.name], [10, 40, "GB"], "10/20/30/40 GB, not 9.3/19/28 GB");
    assert.equal(byteTickLabel(20 * gb, t), "20 GB");
    const small = byteTicks(1.6 * 1024 ** 4);
    assert.deepEqual([small.step / 1024 ** 4, small.name], [0.5, "TB"]);
    assert.equal(byteTickLabel(1.5 * 1024 ** 4, small), "1.5 TB");
    const bytes = byteTicks(7);
    assert.ok(Number.isInteger(bytes.step) && bytes.step >= 1, "no fraction of a byte");
  });
});
