import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { socialLogins, visits } from "../../../src/modules/analytics/analytics.service.js";
import { CLOSED_DAYS_TTL_MS, ClosedDaysCache, lastClosedDay } from "../../../src/modules/analytics/closed-days-cache.js";
import { addDays, localDay, zonedInstant } from "../../../src/modules/guests/local-day.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { createLocation, login } from "../guests/guests-fixtures.js";

const TZ = "Pacific/Auckland";

describe("lastClosedDay", () => {
  it("is two days before the location's own today", () => {
    const now = Date.parse("2026-03-01T12:00:00Z"); // March 2nd, 01:00 in Auckland
    assert.equal(lastClosedDay(now, TZ), "2026-02-28");
    assert.equal(lastClosedDay(now, "America/Chicago"), "2026-02-27");
  });
});

for (const dialect of DIALECTS) {
  describe(`closed days kept in memory (${dialect})`, () => {
    let t: TestApp;
    let loc: number;
    const now = Date.now();
    const today = localDay(new Date(now), TZ);
    const old = addDays(today, -10);
    before(async () => {
      t = await createTestApp(dialect);
      loc = await createLocation(t, TZ);
      const noon = zonedInstant(old, 12 * 3600, TZ).toISOString();
      await login(t, { accountId: t.accountId, locationId: loc, timezone: TZ, at: noon, identity: "old@example.com" });
      await login(t, { accountId: t.accountId, locationId: loc, timezone: TZ, at: new Date(now).toISOString(), identity: "new@example.com" });
    });
    after(async () => t.close());

    const query = async () => ({
      locations: [(await t.deps.repos.locations.findById(t.db, loc))!],
      fromDay: old,
      toDay: today,
      agg: "DAY" as const,
    });
    const custom = async (cache: ClosedDaysCache, at = now) => {
      const res = await socialLogins(t.deps, cache, await query(), at);
      const data = res.series.find((s) => s.name === "Custom")!.data;
      return { old: data[0], today: data[data.length - 1], total: data.reduce((a, b) => a + b, 0) };
    };
    const bump = (day: string) =>
      t.db.updateTable("daily_logins").set((eb) => ({ count: eb("count", "+", 1) })).where("location_id", "=", loc).where("day", "=", day).execute();

    it("answers closed days from memory and recent days from the database", async () => {
      const cache = new ClosedDaysCache();
      assert.deepEqual(await custom(cache), { old: 1, today: 1, total: 2 });
      // Writes behind the cache's back: the closed day keeps its remembered count, today shows at once.
      await bump(old);
      await bump(today);
      assert.deepEqual(await custom(cache), { old: 1, today: 2, total: 3 });
      assert.deepEqual(await custom(new ClosedDaysCache()), { old: 2, today: 2, total: 4 }, "a fresh cache reads everything");
      assert.deepEqual(await custom(cache, now + CLOSED_DAYS_TTL_MS + 1), { old: 2, today: 2, total: 4 }, "entries expire");
      assert.deepEqual(await custom(new ClosedDaysCache(0)), { old: 2, today: 2, total: 4 }, "a TTL of 0 keeps nothing");
    });

    it("keeps visits apart from logins", async () => {
      const cache = new ClosedDaysCache();
      await custom(cache);
      const res = await visits(t.deps, cache, await query(), now);
      const data = res.series[0].data;
      assert.equal(data[0], 1);
      assert.equal(data[data.length - 1], 1);
      assert.equal(data.length, 11);
    });
  });
}
