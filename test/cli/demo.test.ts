import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type DemoSummary, generateDemo } from "../../src/cli/demo.js";
import { planActivity } from "../../src/cli/demo-activity.js";
import { DEMO_SITES } from "../../src/cli/demo-catalogue.js";
import { seededRng } from "../../src/cli/demo-random.js";
import { MAC_RE } from "../../src/mac-address.js";
import { findDeviceModel } from "../../src/modules/devices/device-models.js";
import { localDay } from "../../src/modules/guests/local-day.js";
import { READABLE_ALPHABET } from "../../src/random-text.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";

const DAYS = 7;

/** Local hour of a UTC datetime in a time zone. */
function localHour(dt: string, timeZone: string): number {
  const f = new Intl.DateTimeFormat("en-US", { timeZone, hour: "2-digit", hourCycle: "h23" });
  return Number(f.format(new Date(`${dt.replace(" ", "T")}Z`)));
}

for (const dialect of DIALECTS) {
  describe(`demo data generator (${dialect})`, () => {
    let t: TestApp;
    let summary: DemoSummary;
    const until = new Date();
    const messages: string[] = [];
    before(async () => {
      t = await createTestApp(dialect);
      summary = await generateDemo(t.deps, { accountId: t.accountId, days: DAYS, seed: 3, until, onProgress: (m) => messages.push(m) });
    });
    after(async () => t.close());

    const locationsOf = (accountId: number) =>
      t.db.selectFrom("locations").selectAll().where("account_id", "=", accountId).orderBy("id").execute();

    it("reports what it wrote, and progress on the way", async () => {
      const locations = await locationsOf(t.accountId);
      const ids = locations.map((l) => l.id);
      assert.equal(summary.locations, locations.length);
      const campaigns = await t.db.selectFrom("campaigns").select("id").where("account_id", "=", t.accountId).execute();
      assert.equal(summary.campaigns, campaigns.length);
      const devices = await t.db.selectFrom("devices").selectAll().where("account_id", "=", t.accountId).execute();
      assert.equal(summary.devices, devices.length);
      const guests = await t.db.selectFrom("guests").select("id").where("account_id", "=", t.accountId).execute();
      assert.equal(summary.guests, guests.length);
      const logins = await t.db.selectFrom("logins").select("id").where("account_id", "=", t.accountId).execute();
      assert.equal(summary.logins, logins.length);
      assert.ok(summary.logins > 100 * DAYS, `a week of four venues, got ${summary.logins} logins`);
      const aggregated = await t.db
        .selectFrom("daily_logins")
        .select((eb) => eb.fn.sum<number>("count").as("n"))
        .where("location_id", "in", ids)
        .executeTakeFirstOrThrow();
      assert.equal(Number(aggregated.n), summary.logins, "every login went through recordLogin");
      assert.match(messages[0], /created 4 locations, 4 campaigns and \d+ devices/);
      assert.match(messages.at(-1)!, /^100%/);
    });

    it("makes venues in different time zones with their own campaign, options and access points", async () => {
      const locations = await locationsOf(t.accountId);
      assert.ok(locations.length >= 4);
      assert.equal(new Set(locations.map((l) => l.timezone)).size, locations.length);
      for (const l of locations) {
        const res = await t.call("GET", "get-location-devices", { location_id: l.id });
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
        assert.ok(res.body.devices.length >= 1);
        for (const d of res.body.devices) assert.match(d.mac_address, MAC_RE);
        const [campaign] = await t.db.selectFrom("campaigns").selectAll().where("id", "=", l.default_campaign_id!).execute();
        assert.equal(campaign.account_id, t.accountId);
        assert.ok(Object.values(JSON.parse(campaign.payload).login_options).some(Boolean));
      }
      const statuses = await t.db.selectFrom("devices").select(["last_heard_at", "model_id"]).where("account_id", "=", t.accountId).execute();
      for (const d of statuses) assert.ok(findDeviceModel(d.model_id), `${d.model_id} is in the device catalogue`);
      assert.ok(statuses.some((d) => d.last_heard_at === null), "one access point never connected");
      // The same alphabet as create-device: letters and digits, no look-alikes.
      const secrets = await t.db.selectFrom("devices").select("radius_secret").where("account_id", "=", t.accountId).execute();
      for (const { radius_secret } of secrets) {
        assert.equal(radius_secret.length, 24);
        for (const c of radius_secret) assert.ok(READABLE_ALPHABET.includes(c), `${radius_secret}: "${c}" is not in the create-device alphabet`);
      }
      assert.ok(statuses.some((d) => d.last_heard_at !== null));
    });

    it("has a daily and weekly rhythm, returning guests and realistic devices", async () => {
      const locations = await locationsOf(t.accountId);
      const logins = await t.db
        .selectFrom("logins")
        .select(["location_id", "logged_at", "local_day", "guest_id", "os_name"])
        .where("account_id", "=", t.accountId)
        .execute();
      const zone = new Map(locations.map((l) => [l.id, l.timezone]));
      const hours = new Array<number>(24).fill(0);
      for (const l of logins) hours[localHour(l.logged_at, zone.get(l.location_id)!)]++;
      assert.equal(hours[2] + hours[3] + hours[4], 0, "nobody logs in at 3 in the morning");
      assert.ok(hours[12] + hours[13] > 3 * (hours[7] + hours[16]) / 2, `lunch peak: ${hours.join(",")}`);

      // The co-working loft is busy on weekdays and quiet at weekends.
      const tokyo = locations.find((l) => l.timezone === "Asia/Tokyo")!;
      const perDay = new Map<string, number>();
      for (const l of logins) if (l.location_id === tokyo.id) perDay.set(l.local_day, (perDay.get(l.local_day) ?? 0) + 1);
      const weekend: number[] = [];
      const weekday: number[] = [];
      const today = localDay(until, "Asia/Tokyo");
      for (const [day, n] of perDay) {
        if (day === today) continue; // partial
        (([0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()) ? weekend : weekday) as number[]).push(n);
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      assert.ok(mean(weekday) > 2 * mean(weekend), `weekdays ${weekday} vs weekends ${weekend}`);

      const perGuest = new Map<number, number>();
      for (const l of logins) perGuest.set(l.guest_id, (perGuest.get(l.guest_id) ?? 0) + 1);
      assert.ok([...perGuest.values()].some((n) => n > 1), "some guests come back");
      assert.ok(summary.visits > 0, "returning guests reconnect through RADIUS");
      const os = new Set(logins.map((l) => l.os_name));
      assert.ok(os.has("iOS") && os.has("Android"), [...os].join(","));
    });

    it("feeds the analytics endpoints, logins and visits alike", async () => {
      const locations = await locationsOf(t.accountId);
      const ids = locations.map((l) => l.id).join(",");
      const to = localDay(until, "UTC");
      const from = new Date(until.getTime() - (DAYS + 1) * 86_400_000).toISOString().slice(0, 10);
      const res = await t.call("GET", "get-social-logins", { location_id: ids, from_date: from, to_date: addDay(to) });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const total = res.body.series.reduce((n: number, s: { data: number[] }) => n + s.data.reduce((a, b) => a + b, 0), 0);
      assert.equal(total, summary.logins);
      const visits = await t.call("GET", "get-visits", { location_id: ids, from_date: from, to_date: addDay(to) });
      const daily = visits.body.series[0].data as number[];
      assert.ok(daily.filter((n) => n > 0).length >= DAYS - 1);
    });

    it("gives the same activity for the same seed and end, also in another account", async () => {
      const other = await t.newAccount();
      const again = await generateDemo(t.deps, { accountId: other.accountId, days: DAYS, seed: 3, until });
      assert.deepEqual(again, summary);
      const series = async (accountId: number) => {
        const locs = await locationsOf(accountId);
        const rows = await t.db
          .selectFrom("daily_logins")
          .select(["location_id", "day", "login_type", "count"])
          .where("location_id", "in", locs.map((l) => l.id))
          .orderBy("location_id")
          .orderBy("day")
          .orderBy("login_type")
          .execute();
        const index = new Map(locs.map((l, i) => [l.id, i]));
        return rows.map((r) => [index.get(r.location_id), r.day, r.login_type, r.count]);
      };
      assert.deepEqual(await series(other.accountId), await series(t.accountId));
      const plan = (seed: number) =>
        planActivity(seededRng(seed), DEMO_SITES, DEMO_SITES.map(() => ["2026-03-02", "2026-03-03"]), until).map((e) => [e.at.getTime(), e.guest.identity]);
      assert.deepEqual(plan(3), plan(3));
      assert.notDeepEqual(plan(4), plan(3), "another seed, other activity");
    });
  });
}

function addDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
