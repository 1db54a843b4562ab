import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import type { DB } from "../../../src/db/database.js";
import { transaction } from "../../../src/db/transaction.js";
import { type LoginCompanion, countVisits, recordLogin, recordVisit } from "../../../src/modules/guests/guest-activity.service.js";
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

    if (dialect === "sqlite") {
      /** A login's companion write that notes the transaction it ran in, and refuses when asked to. */
      const noting = (seen: DB[], refuse = false): LoginCompanion => ({
        shape: "test",
        values: {},
        cte: () => sql``,
        write: async (trx) => {
          seen.push(trx);
          if (refuse) throw new Error("companion refused");
        },
      });

      it("writes logins that arrive together in one transaction, each resolved once committed", async () => {
        const seen: DB[] = [];
        const before = await count();
        const ids = await Promise.all(["t1", "t2", "t3", "t4"].map((who) => recordLogin(t.db, { ...input(`${who}@example.com`), companion: noting(seen) })));
        assert.equal(new Set(ids.map((i) => i.guestId)).size, 4);
        assert.equal(seen.length, 4);
        assert.ok(seen.every((trx) => trx === seen[0]), "all four in one transaction");
        assert.equal(await count(), before + 4);
      });

      it("refuses only the faulty login of a batch: the others are written again one by one and stored", async () => {
        const seen: DB[] = [];
        const before = await count();
        const results = await Promise.allSettled(
          ["f1", "f2", "f3", "f4"].map((who) => recordLogin(t.db, { ...input(`${who}@example.com`), companion: noting(seen, who === "f3") })),
        );
        assert.deepEqual(results.map((r) => r.status), ["fulfilled", "fulfilled", "rejected", "fulfilled"]);
        assert.match(String((results[2] as PromiseRejectedResult).reason), /companion refused/);
        // The batch got as far as the third, then each was written in a transaction of its own.
        assert.equal(seen.length, 3 + 4);
        assert.equal(new Set(seen.slice(3)).size, 4);
        assert.equal(await count(), before + 3);
        const who = ["f1@example.com", "f2@example.com", "f3@example.com", "f4@example.com"];
        const stored = await t.db.selectFrom("guests").select("network_user_id").where("network_user_id", "in", who).execute();
        assert.deepEqual(stored.map((g) => g.network_user_id).sort(), ["f1@example.com", "f2@example.com", "f4@example.com"]);
      });
    }

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
