import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { transaction } from "../../../src/db/transaction.js";
import { recordLogin, recordVisit } from "../../../src/modules/guests/guest-activity.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { IPHONE_UA, createLocation } from "./guests-fixtures.js";

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
  });
}
