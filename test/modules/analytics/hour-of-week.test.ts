import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { HOURS_OF_WEEK, hourOfWeekCounts } from "../../../src/modules/analytics/analytics.service.js";
import type { Ctx } from "../../../src/modules/context.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { createLocation, login } from "../guests/guests-fixtures.js";

const CHI = "America/Chicago"; // clocks go forward on 2026-03-08 and back on 2026-11-01
const SYD = "Australia/Sydney"; // clocks go back on 2026-04-05
const KTM = "Asia/Kathmandu"; // UTC+05:45: hours that do not start on a UTC hour

/** The expected answer, counted from the raw logins with a clock of the test's own. */
async function countRaw(t: TestApp, zones: Map<number, string>, from: string, to: string): Promise<number[]> {
  const out = new Array<number>(HOURS_OF_WEEK).fill(0);
  const rows = await t.db.selectFrom("logins").select(["location_id", "logged_at", "local_day"]).execute();
  for (const r of rows) {
    const zone = zones.get(r.location_id);
    if (!zone || r.local_day < from || r.local_day > to) continue;
    const at = new Date(`${r.logged_at.replace(" ", "T")}Z`);
    const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "numeric", hourCycle: "h23" }).format(at));
    const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(
      new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short" }).format(at),
    );
    out[weekday * 24 + hour]++;
  }
  return out;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

for (const dialect of DIALECTS) {
  describe(`hour-of-week counts (${dialect})`, () => {
    let t: TestApp;
    let ctx: Ctx;
    const zones = new Map<number, string>();
    let chicago: number;
    let sydney: number;
    let total = 0;

    before(async () => {
      t = await createTestApp(dialect);
      ctx = { db: t.db, repos: t.deps.repos };
      chicago = await createLocation(t, CHI, "Chicago");
      sydney = await createLocation(t, SYD, "Sydney");
      const kathmandu = await createLocation(t, KTM, "Kathmandu");
      zones.set(chicago, CHI).set(sydney, SYD).set(kathmandu, KTM);
      // Logins spread over six weeks around both DST changes, at pseudo-random minutes.
      let seed = 7;
      const next = () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed;
      };
      const start = Date.parse("2026-02-25T00:00:00Z");
      const specs: Parameters<typeof login>[1][] = [];
      for (let i = 0; i < 240; i++) {
        const id = [chicago, sydney, kathmandu][i % 3];
        const at = new Date(start + (next() % (42 * 86_400))*1000).toISOString();
        specs.push({ accountId: t.accountId, locationId: id, timezone: zones.get(id)!, at, identity: `g${next() % 50}@example.com` });
      }
      // The night Chicago's clocks go forward: 01:59 and 03:00 local are one minute apart.
      specs.push({ accountId: t.accountId, locationId: chicago, timezone: CHI, at: "2026-03-08T07:59:00Z", identity: "dst1@example.com" });
      specs.push({ accountId: t.accountId, locationId: chicago, timezone: CHI, at: "2026-03-08T08:00:00Z", identity: "dst2@example.com" });
      // Sydney's clocks go back: 02:30 local happens twice on Sunday April 5th.
      specs.push({ accountId: t.accountId, locationId: sydney, timezone: SYD, at: "2026-04-04T15:30:00Z", identity: "dst3@example.com" });
      specs.push({ accountId: t.accountId, locationId: sydney, timezone: SYD, at: "2026-04-04T16:30:00Z", identity: "dst4@example.com" });
      for (const s of specs) await login(t, s);
      total = specs.length;
    });
    after(async () => t.close());

    it("equals the raw logins counted by local weekday and hour, over several time zones", async () => {
      const locations = [...zones].map(([id, timezone]) => ({ id, timezone }));
      const got = await hourOfWeekCounts(ctx, locations, "2026-01-01", "2026-12-31");
      assert.equal(got.length, 168);
      assert.equal(sum(got), total, "every login counted once");
      assert.deepEqual(got, await countRaw(t, zones, "2026-01-01", "2026-12-31"));
      // Sydney's repeated hour: both logins at 02:30 on Sunday (weekday 6).
      const syd = await hourOfWeekCounts(ctx, [{ id: sydney, timezone: SYD }], "2026-04-05", "2026-04-05");
      assert.equal(syd[6 * 24 + 2], 2);
      // Chicago's skipped hour: 01:59 and 03:00 on Sunday March 8th.
      const chi = await hourOfWeekCounts(ctx, [{ id: chicago, timezone: CHI }], "2026-03-08", "2026-03-08");
      assert.equal(chi[6 * 24 + 1], 1);
      assert.equal(chi[6 * 24 + 3], 1);
      assert.equal(chi[6 * 24 + 2], 0);
    });

    it("keeps to the local days from..to and the locations given", async () => {
      const one = [{ id: chicago, timezone: CHI }];
      const got = await hourOfWeekCounts(ctx, one, "2026-03-02", "2026-03-15");
      assert.deepEqual(got, await countRaw(t, new Map([[chicago, CHI]]), "2026-03-02", "2026-03-15"));
      assert.ok(sum(got) > 0 && sum(got) < total);
      assert.deepEqual(await hourOfWeekCounts(ctx, [], "2026-01-01", "2026-12-31"), new Array(168).fill(0));
      assert.deepEqual(await hourOfWeekCounts(ctx, one, "2025-01-01", "2025-12-31"), new Array(168).fill(0));
    });

    it("counts every one of many concurrent logins at one location, daily and hourly", async () => {
      const loc = await createLocation(t, "Europe/London", "Busy");
      const n = 60;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          login(t, { accountId: t.accountId, locationId: loc, timezone: "Europe/London", at: "2026-06-01T11:00:00Z", identity: `rush${i}@example.com` }),
        ),
      );
      const hours = await hourOfWeekCounts(ctx, [{ id: loc, timezone: "Europe/London" }], "2026-06-01", "2026-06-01");
      assert.equal(hours[0 * 24 + 12], n); // 2026-06-01 is a Monday
      const res = await t.call("GET", "get-social-logins", { location_id: loc, from_date: "2026-06-01", to_date: "2026-06-01" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const custom = res.body.series.find((s: { name: string }) => s.name === "Custom");
      assert.deepEqual(custom.data, [n]);
      const visits = await t.call("GET", "get-visits", { location_id: loc, from_date: "2026-06-01", to_date: "2026-06-01" });
      assert.deepEqual(visits.body.series[0].data, [n]);
    });
  });
}
