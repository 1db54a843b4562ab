import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { recordVisit } from "../../../src/modules/guests/guest-activity.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { createLocation, login } from "../guests/guests-fixtures.js";

const CHI = "America/Chicago";
const SYD = "Australia/Sydney";
const SERIES = ["Facebook", "Custom", "Instagram", "Twitter", "SMS", "Click-through", "E-mail", "LinkedIn", "Voucher", "Passpoint"];

type Series = { name: string; data: number[] };
const byName = (series: Series[]) => Object.fromEntries(series.map((s) => [s.name, s.data]));

for (const dialect of DIALECTS) {
  describe(`analytics (${dialect})`, () => {
    let t: TestApp;
    let chicago: number;
    let sydney: number;
    before(async () => {
      t = await createTestApp(dialect);
      chicago = await createLocation(t, CHI, "Chicago");
      sydney = await createLocation(t, SYD, "Sydney");
      const a = t.accountId;
      // Chicago: Feb 28th (03:30 UTC on Mar 1st), two logins on Mar 2nd by one guest, one Facebook on Mar 9th.
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-01T03:30:00Z", identity: "ann@example.com" });
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-02T15:00:00Z", identity: "bob@example.com" });
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-02T20:00:00Z", identity: "bob@example.com" });
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-09T20:00:00Z", identity: "9", loginType: "FBUser" });
      // Sydney: 14:00 UTC on Mar 1st is already Mar 2nd there (UTC+11).
      const cy = await login(t, { accountId: a, locationId: sydney, timezone: SYD, at: "2026-03-01T14:00:00Z", identity: "+61400000000", loginType: "Twilio" });
      // Cy comes back through RADIUS on Mar 3rd and Mar 4th (local), twice on the 4th: visits, not logins.
      await recordVisit(t.db, { locationId: sydney, timezone: SYD, guestId: cy.guestId, at: new Date("2026-03-03T01:00:00Z") });
      await recordVisit(t.db, { locationId: sydney, timezone: SYD, guestId: cy.guestId, at: new Date("2026-03-03T22:00:00Z") });
      await recordVisit(t.db, { locationId: sydney, timezone: SYD, guestId: cy.guestId, at: new Date("2026-03-04T02:00:00Z") });
    });
    after(async () => t.close());

    const logins = (params: Record<string, unknown>, identifier?: string) => t.call("GET", "get-social-logins", params, { identifier });
    const visits = (params: Record<string, unknown>, identifier?: string) => t.call("GET", "get-visits", params, { identifier });

    it("answers one zero-filled series per login type, in the fixed order, on the location's own days", async () => {
      const res = await logins({ location_id: chicago, from_date: "2026-02-27", to_date: "2026-03-03" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      assert.deepEqual(res.body.categories, ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02", "2026-03-03"]);
      assert.deepEqual(
        res.body.series.map((s: Series) => s.name),
        SERIES,
      );
      for (const s of res.body.series) assert.equal(s.data.length, 5, `${s.name} has one number per day`);
      const data = byName(res.body.series);
      // The login at 03:30 UTC on Mar 1st counts on Feb 28th in Chicago.
      assert.deepEqual(data.Custom, [0, 1, 0, 2, 0]);
      assert.deepEqual(data.Facebook, [0, 0, 0, 0, 0]);
    });

    it("counts distinct guests per day as visits, RADIUS reconnects included", async () => {
      const chi = await visits({ location_id: chicago, from_date: "2026-02-28", to_date: "2026-03-02" });
      assert.equal(chi.statusCode, 200, JSON.stringify(chi.body));
      assert.deepEqual(chi.body.series, [{ name: "Visits", data: [1, 0, 1] }], "Bob's two logins on Mar 2nd are one visit");
      const syd = await visits({ location_id: sydney, from_date: "2026-03-01", to_date: "2026-03-05" });
      assert.deepEqual(syd.body.categories, ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"]);
      assert.deepEqual(syd.body.series[0].data, [0, 1, 1, 1, 0]);
    });

    it("adds several locations up", async () => {
      const res = await logins({ location_id: `${chicago}, ${sydney}`, from_date: "2026-03-01", to_date: "2026-03-02" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const data = byName(res.body.series);
      assert.deepEqual(data.Custom, [0, 2]);
      assert.deepEqual(data.SMS, [0, 1]);
      const v = await visits({ location_id: `${chicago},${sydney}`, from_date: "2026-03-01", to_date: "2026-03-04" });
      assert.deepEqual(v.body.series[0].data, [0, 2, 1, 1]);
    });

    it("aggregates by ISO week and by month, labelled by each bucket's first day in the range", async () => {
      const week = await logins({ location_id: `${chicago},${sydney}`, from_date: "2026-02-25", to_date: "2026-03-10", agg: "WEEK" });
      assert.equal(week.statusCode, 200, JSON.stringify(week.body));
      assert.deepEqual(week.body.categories, ["2026-02-25", "2026-03-02", "2026-03-09"]);
      const w = byName(week.body.series);
      assert.deepEqual(w.Custom, [1, 2, 0]);
      assert.deepEqual(w.SMS, [0, 1, 0]);
      assert.deepEqual(w.Facebook, [0, 0, 1]);
      const month = await visits({ location_id: `${chicago},${sydney}`, from_date: "2026-02-25", to_date: "2026-03-10", agg: "MONTH" });
      assert.deepEqual(month.body.categories, ["2026-02-25", "2026-03-01"]);
      // March: Bob on the 2nd, Facebook guest on the 9th, Cy on the 2nd, 3rd and 4th: the sum of daily visits.
      assert.deepEqual(month.body.series, [{ name: "Visits", data: [1, 5] }]);
      const day = await visits({ location_id: chicago, from_date: "2026-03-01", to_date: "2026-03-01", agg: "DAY" });
      assert.deepEqual(day.body.categories, ["2026-03-01"]);
      const bad = await visits({ location_id: chicago, from_date: "2026-03-01", to_date: "2026-03-01", agg: "YEAR" });
      assert.deepEqual(bad.body.message, { agg: ["The agg must be one of: DAY, WEEK, MONTH."] });
    });

    it("reads the daily aggregates, not the raw logins", async () => {
      const loc = await createLocation(t, CHI, "Aggregates only");
      await login(t, { accountId: t.accountId, locationId: loc, timezone: CHI, at: "2026-03-05T18:00:00Z", identity: "agg@example.com" });
      await t.db.deleteFrom("logins").where("location_id", "=", loc).execute();
      const res = await logins({ location_id: loc, from_date: "2026-03-05", to_date: "2026-03-05" });
      assert.deepEqual(byName(res.body.series).Custom, [1]);
    });

    it("enforces the 60-day range, real dates and to_date after from_date", async () => {
      const sixty = await logins({ location_id: chicago, from_date: "2026-01-01", to_date: "2026-03-02" });
      assert.equal(sixty.statusCode, 200, "exactly 60 days is allowed");
      assert.equal(sixty.body.categories.length, 61);
      for (const s of sixty.body.series) assert.equal(s.data.length, 61);
      const tooLong = await visits({ location_id: chicago, from_date: "2026-01-01", to_date: "2026-03-03" });
      assert.equal(tooLong.statusCode, 400);
      assert.deepEqual(tooLong.body.message, { to_date: ["The to_date must be a date within 60 days after from_date."] });
      const backwards = await logins({ location_id: chicago, from_date: "2026-03-02", to_date: "2026-03-01" });
      assert.deepEqual(backwards.body.message, { to_date: ["The to_date must be a date after or equal to from_date."] });
      const feb30 = await visits({ location_id: chicago, from_date: "2023-02-28", to_date: "2023-02-30" });
      assert.deepEqual(feb30.body.message, { to_date: ["The to_date is not a valid date."] });
      const all = await logins({ location_id: "1,,2", from_date: "yesterday" });
      assert.deepEqual(all.body.message, {
        location_id: ["The location_id format is invalid."],
        from_date: ["The from_date is not a valid date."],
        to_date: ["The to_date field is required."],
      });
    });

    it("keeps accounts apart", async () => {
      const other = await t.newAccount();
      for (const call of [logins, visits]) {
        const res = await call({ location_id: chicago, from_date: "2026-03-01", to_date: "2026-03-02" }, other.identifier);
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.body, { status: "error", message: { location_id: ["The selected location_id is invalid."] } });
      }
      const theirs = await createLocation(t, CHI, "Theirs", other.identifier);
      const mixed = await visits({ location_id: `${chicago},${theirs}`, from_date: "2026-03-01", to_date: "2026-03-02" });
      assert.deepEqual(mixed.body.message, { location_id: ["The selected location_id is invalid."] });
      const own = await visits({ location_id: theirs, from_date: "2026-03-01", to_date: "2026-03-02" }, other.identifier);
      assert.deepEqual(own.body.series, [{ name: "Visits", data: [0, 0] }]);
    });
  });
}
