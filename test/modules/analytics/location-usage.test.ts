/**
 * A location's octets per local day (daily_location_usage), which the console's overview and the
 * analytics read instead of summing every guest's row: the database keeps them from daily_usage's
 * every write (insert, the accounting's upsert, a plain update, a guest's rows moved by erasure),
 * on both databases, and the migration fills them from the usage already stored.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { migrateToLatest } from "../../../src/db/migrator.js";
import { down as dropLocationUsage } from "../../../src/db/migrations/2026-11-28T1700-location-usage.js";
import { recordUsage } from "../../../src/modules/guests/guest-activity.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS, createTestDb } from "../../helpers/db.js";
import { makeLocation } from "../../helpers/sub-users.js";

const MIGRATION = "2026-11-28T1700-location-usage";
type Db = TestApp["db"];

/** Per location and day: [the guests' rows summed, the location's totals summed over their shards]. */
async function bothSums(db: Db, locationIds: number[]): Promise<{ guests: string[]; locations: string[] }> {
  const perDay = async (table: "daily_usage" | "daily_location_usage") =>
    (
      await db
        .selectFrom(table)
        .select((eb) => ["location_id", "day", eb.fn.sum<string>("octets").as("n")])
        .where("location_id", "in", locationIds)
        .groupBy(["location_id", "day"])
        .orderBy("location_id")
        .orderBy("day")
        .execute()
    ).map((r) => `${r.location_id} ${r.day} ${Number(r.n)}`);
  return { guests: await perDay("daily_usage"), locations: await perDay("daily_location_usage") };
}

for (const dialect of DIALECTS) {
  describe(`a location's daily octets (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t?.close());

    it("follows every write of the guests' daily usage, and the analytics read it", async () => {
      const a = await makeLocation(t);
      const b = await makeLocation(t);
      const at = new Date("2026-11-20T15:00:00Z");
      const day = "2026-11-20";
      // The accounting's upsert: a first packet inserts, the next ones add to the row.
      await recordUsage(t.db, { guestId: 101, locationId: a, timezone: "UTC", octets: 1_000, at });
      await recordUsage(t.db, { guestId: 101, locationId: a, timezone: "UTC", octets: 250, at });
      await recordUsage(t.db, { guestId: 102, locationId: a, timezone: "UTC", octets: 6_000_000_000, at });
      await recordUsage(t.db, { guestId: 101, locationId: b, timezone: "UTC", octets: 7, at });
      await recordUsage(t.db, { guestId: 101, locationId: a, timezone: "UTC", octets: 40, at: new Date("2026-11-21T15:00:00Z") });
      // A plain insert and update (what a repair by hand, or the demo generator, does).
      await t.db.insertInto("daily_usage").values({ guest_id: 103, location_id: a, day, octets: 500 }).execute();
      await t.db.updateTable("daily_usage").set({ octets: 800 }).where("guest_id", "=", 103).execute();
      await t.db.updateTable("daily_usage").set({ octets: 800 }).where("guest_id", "=", 103).execute();
      // Erasure moves a guest's rows to another guest: the location's totals stay.
      await t.db.updateTable("daily_usage").set({ guest_id: 104 }).where("guest_id", "=", 102).execute();

      const sums = await bothSums(t.db, [a, b]);
      assert.deepEqual(sums.guests, [`${a} ${day} ${1_000 + 250 + 6_000_000_000 + 800}`, `${a} 2026-11-21 40`, `${b} ${day} 7`]);
      assert.deepEqual(sums.locations, sums.guests);
      const read = await t.deps.repos.analytics.usageByLocationDay(t.db, [a, b], "2026-11-19", "2026-11-21");
      assert.deepEqual(
        read.map((r) => `${r.location_id} ${r.day} ${Number(r.count)}`).sort(),
        [`${a} 2026-11-20 6000002050`, `${a} 2026-11-21 40`, `${b} 2026-11-20 7`].sort(),
      );
    });

    it("is filled by its migration from the usage already stored", async () => {
      const d = await createTestDb(dialect);
      try {
        // A database as it was before the migration, with usage of two locations and days.
        await dropLocationUsage(d.db);
        await d.db.deleteFrom("kysely_migration" as never).where("name" as never, "=", MIGRATION as never).execute();
        await d.db.insertInto("daily_usage").values([
          { guest_id: 1, location_id: 11, day: "2026-10-01", octets: 5 },
          { guest_id: 2, location_id: 11, day: "2026-10-01", octets: 9_000_000_000 },
          { guest_id: 1, location_id: 12, day: "2026-10-02", octets: 3 },
        ]).execute();
        assert.deepEqual(await migrateToLatest(d.db), [MIGRATION]);
        const sums = await bothSums(d.db as Db, [11, 12]);
        assert.deepEqual(sums.locations, ["11 2026-10-01 9000000005", "12 2026-10-02 3"]);
        // And from then on the trigger keeps it.
        await recordUsage(d.db, { guestId: 1, locationId: 12, timezone: "UTC", octets: 10, at: new Date("2026-10-02T12:00:00Z") });
        assert.deepEqual((await bothSums(d.db as Db, [11, 12])).locations, ["11 2026-10-01 9000000005", "12 2026-10-02 13"]);
        const shards = await sql<{ n: number }>`select count(*) as n from daily_location_usage`.execute(d.db);
        assert.ok(Number(shards.rows[0].n) >= 2);
      } finally {
        await d.close();
      }
    });
  });
}
