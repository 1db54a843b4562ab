import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { transaction } from "../../../src/db/transaction.js";
import { countVisits, recordLogin, recordVisit } from "../../../src/modules/guests/guest-activity.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { IPHONE_UA, createLocation } from "./guests-fixtures.js";

/** daily_visits summed over shards, and daily_visitors, by location and day. */
async function visitCounts(t: TestApp): Promise<{ visits: string[]; visitors: string[] }> {
  const visits = await t.db
    .selectFrom("daily_visits")
    .select(["location_id", "day", (eb) => eb.fn.sum<number>("count").as("n")])
    .groupBy(["location_id", "day"])
    .orderBy("location_id")
    .orderBy("day")
    .execute();
  const visitors = await t.db.selectFrom("daily_visitors").select(["location_id", "day", "guest_id"]).orderBy("location_id").orderBy("day").orderBy("guest_id").execute();
  return { visits: visits.map((v) => `${v.location_id} ${v.day} ${Number(v.n)}`), visitors: visitors.map((v) => `${v.location_id} ${v.day} ${v.guest_id}`) };
}

for (const dialect of DIALECTS) {
  describe(`guest activity inside a caller's transaction (${dialect})`, () => {
    let t: TestApp;
    let loc: number;
    before(async () => {
      t = await createTestApp(dialect);
      loc = await createLocation(t, "Europe/London");
    });
    after(async () => t.close());

    const input = (identity: string) => ({
      accountId: t.accountId, locationId: loc, timezone: "Europe/London", campaignId: 1, deviceId: null,
      loginType: "Muser" as const, identity, profile: {}, clientMac: "", userAgent: IPHONE_UA, at: new Date("2026-05-01T12:00:00Z"),
    });
    const count = async () =>
      Number((await t.db.selectFrom("daily_logins").select((eb) => eb.fn.sum<number>("count").as("n")).executeTakeFirstOrThrow()).n ?? 0);

    it("joins the caller's transaction: a rollback leaves nothing behind", async () => {
      await assert.rejects(
        transaction(t.db, async (trx) => {
          const { guestId } = await recordLogin(trx, input("rolled@example.com"));
          await recordVisit(trx, { locationId: loc, timezone: "Europe/London", guestId, at: new Date("2026-05-02T12:00:00Z") });
          throw new Error("abort the batch");
        }),
        /abort the batch/,
      );
      assert.equal(await count(), 0);
      assert.equal((await t.db.selectFrom("guests").select("id").execute()).length, 0);
      assert.equal((await t.db.selectFrom("daily_visits").select("day").execute()).length, 0);
    });

    it("commits a batch of logins with the caller's transaction", async () => {
      await transaction(t.db, async (trx) => {
        for (const who of ["a@example.com", "b@example.com", "a@example.com"]) await recordLogin(trx, input(who));
      });
      assert.equal(await count(), 3);
      const visits = await t.db.selectFrom("daily_visits").select(["day", "count"]).execute();
      assert.deepEqual(visits, [{ day: "2026-05-01", count: 2 }]);
    });

    it("counts a burst of visits at once: each guest once per location and day, first visits told apart", async () => {
      const other = await createLocation(t, "Asia/Tokyo");
      const g = [];
      for (const who of ["v1@example.com", "v2@example.com", "v3@example.com"]) g.push((await recordLogin(t.db, { ...input(who), at: new Date("2026-06-01T12:00:00Z") })).guestId);
      const before = await visitCounts(t);
      const day = "2026-06-02";
      // g[0] already visited on 06-01 only; g[1] twice in the burst; g[2] at two locations; then a day already counted.
      const first = await countVisits(t.db, [
        { locationId: loc, day, guestId: g[0] },
        { locationId: loc, day, guestId: g[1] },
        { locationId: other, day, guestId: g[2] },
        { locationId: loc, day, guestId: g[1] },
        { locationId: loc, day, guestId: g[2] },
        { locationId: loc, day: "2026-06-01", guestId: g[0] },
      ]);
      assert.deepEqual(first, [true, true, true, false, true, false]);
      const after = await visitCounts(t);
      assert.deepEqual(
        after.visits.filter((v) => !before.visits.includes(v)),
        [`${loc} ${day} 3`, `${other} ${day} 1`],
      );
      assert.deepEqual(after.visitors.filter((v) => !before.visitors.includes(v)).sort(), [
        `${loc} ${day} ${g[0]}`,
        `${loc} ${day} ${g[1]}`,
        `${loc} ${day} ${g[2]}`,
        `${other} ${day} ${g[2]}`,
      ].sort());
      // The same burst again counts nothing more.
      assert.deepEqual(await countVisits(t.db, [{ locationId: loc, day, guestId: g[1] }, { locationId: other, day, guestId: g[2] }]), [false, false]);
      assert.deepEqual((await visitCounts(t)).visits, after.visits);
      assert.deepEqual(await countVisits(t.db, []), []);
    });
  });
}
