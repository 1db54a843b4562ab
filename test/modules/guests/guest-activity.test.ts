import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAccount } from "../../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../../src/modules/context.js";
import { recordLogin, recordVisit } from "../../../src/modules/guests/guest-activity.service.js";
import { localDay, localDayHour } from "../../../src/modules/guests/local-day.js";
import { DIALECTS, type TestDb, createTestDb } from "../../helpers/db.js";

describe("localDay", () => {
  it("counts days in the location's zone, not UTC", () => {
    const at = new Date("2026-03-01T03:30:00Z");
    assert.equal(localDay(at, "America/Chicago"), "2026-02-28");
    assert.equal(localDay(at, "Asia/Tokyo"), "2026-03-01");
  });

  it("gives each minute its local day and hour, across clock changes and in zones a quarter hour off", () => {
    // Minute by minute (answers are kept per zone for a minute), across the changes.
    const cases: [string, string][] = [
      ["Europe/Berlin", "2026-03-29T00:00:00Z"], // 02:00 becomes 03:00 at 01:00 UTC
      ["Europe/Berlin", "2026-10-25T00:00:00Z"], // 03:00 becomes 02:00 again
      ["Asia/Kathmandu", "2026-03-01T17:00:00Z"], // +05:45: midnight at 18:15 UTC
      ["Australia/Lord_Howe", "2026-04-04T14:00:00Z"], // half an hour back at 02:00 local
      ["Antarctica/Casey", "2022-10-01T15:00:00Z"], // +08 to +11 at 00:01 local, 16:01 UTC
    ];
    for (const [zone, from] of cases) {
      const f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit" });
      for (let m = 0; m < 3 * 60; m++) {
        // The start and the end of each minute: the second answer may come from the first.
        for (const ms of [0, 59_999]) {
          const at = new Date(Date.parse(from) + m * 60_000 + ms);
          const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
          assert.deepEqual(localDayHour(at, zone), { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) }, `${zone} at ${at.toISOString()}`);
        }
      }
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`guest activity (${dialect})`, () => {
    let t: TestDb;
    let accountId: number;
    let locationId: number;
    before(async () => {
      t = await createTestDb(dialect);
      accountId = (await createAccount({ db: t.db, repos: createRepositories() }, `a-${dialect}@example.com`)).accountId;
      const loc = await t.db
        .insertInto("locations")
        .values({
          account_id: accountId, name: "L", address1: "a", town: "t", state: "s", zipcode: "z", country: "US",
          phone_number: "(111)222-3333", timezone: "America/Chicago", portal_slug: `slug-${dialect}`,
          date_created: "2026-01-01 00:00:00", last_modified: "2026-01-01 00:00:00", deleted: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      locationId = loc.id;
    });
    after(async () => t.close());

    it("keeps one guest per identity, counts logins and distinct daily visitors", async () => {
      const base = {
        accountId, locationId, timezone: "America/Chicago", campaignId: 1, deviceId: null,
        loginType: "Cuser" as const, identity: "Ann@Example.com", clientMac: "AA:BB:CC:DD:EE:FF",
        userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      };
      const a = await recordLogin(t.db, { ...base, profile: { email: "ann@example.com", full_name: "Ann" }, at: new Date("2026-03-01T03:30:00Z") });
      const b = await recordLogin(t.db, { ...base, identity: "ann@example.com", profile: {}, at: new Date("2026-03-01T04:30:00Z") });
      assert.equal(a.guestId, b.guestId);
      const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", a.guestId).executeTakeFirstOrThrow();
      assert.equal(guest.full_name, "Ann", "a later login without a name keeps the known one");
      const logins = await t.db.selectFrom("daily_logins").selectAll().where("location_id", "=", locationId).execute();
      assert.deepEqual(logins.map((r) => [r.day, r.login_type, r.count]), [["2026-02-28", "Cuser", 2]]);
      const firstVisit = await recordVisit(t.db, { locationId, timezone: "America/Chicago", guestId: a.guestId, at: new Date("2026-03-01T05:00:00Z") });
      assert.equal(firstVisit, false, "already a visitor that day");
      assert.equal(await recordVisit(t.db, { locationId, timezone: "America/Chicago", guestId: a.guestId, at: new Date("2026-03-02T12:00:00Z") }), true);
      const visits = await t.db.selectFrom("daily_visits").select(["day", "count"]).where("location_id", "=", locationId).orderBy("day").execute();
      assert.deepEqual(visits, [{ day: "2026-02-28", count: 1 }, { day: "2026-03-02", count: 1 }]);
      const login = await t.db.selectFrom("logins").selectAll().where("id", "=", a.loginId).executeTakeFirstOrThrow();
      assert.equal(login.os_name, "iOS");
      assert.equal(login.device_type, "mobile");
      assert.equal(login.device_brand, "Apple");
    });
  });
}
