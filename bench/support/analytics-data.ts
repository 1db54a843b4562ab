/**
 * A year of guest activity at 20 locations, 1 million logins, bulk-inserted for the analytics
 * benchmark. Going through recordLogin would take an hour: the logins are inserted in large
 * multi-row statements, then each table recordLogin keeps (guest_locations, daily_logins,
 * daily_visitors, daily_visits) is built from them with one INSERT ... SELECT, and hourly_logins and
 * daily_new_guests from the same draws, so the aggregates agree with the logins exactly.
 */
import { sql } from "kysely";
import { seededRng } from "../../src/cli/demo-random.js";
import type { DB } from "../../src/db/database.js";
import { dialectOf } from "../../src/db/dialect.js";
import type { LoginType } from "../../src/modules/guests/login-types.js";
import { createRepositories } from "../../src/modules/context.js";
import { parseUserAgent } from "../../src/modules/guests/user-agent.js";

export interface AnalyticsData {
  locationIds: number[];
  /** First and last local day of the data. */
  firstDay: string;
  lastDay: string;
  logins: number;
  guests: number;
}

const ZONES = ["America/New_York", "America/Chicago", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "Australia/Sydney"];
const HOURLY = [0, 0, 0, 0, 0, 0, 2, 6, 9, 8, 6, 7, 14, 13, 6, 5, 5, 8, 9, 7, 4, 2, 1, 0];
const WEEKLY = [1.35, 0.9, 0.9, 0.95, 1.0, 1.15, 1.5];
/** Twenty slots: how often each login type occurs. */
const TYPE_SLOTS: LoginType[] = [
  ...Array<LoginType>(6).fill("FBUser"), ...Array<LoginType>(4).fill("Cuser"), ...Array<LoginType>(3).fill("IGuser"), "TWuser",
  "Twilio", "Twilio", "FWuser", "FWuser", "Muser", "LIuser",
];
const AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
].map((ua) => ({ user_agent: ua, ...parseUserAgent(ua) }));

const DAY_MS = 86_400_000;

/** Draws an index with probability proportional to `weights`, by binary search over the running sums. */
function sampler(weights: number[]): (r: number) => number {
  const sums: number[] = [];
  let total = 0;
  for (const w of weights) {
    total += w;
    sums.push(total);
  }
  return (r) => {
    const x = r * total;
    let lo = 0;
    let hi = sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sums[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/** Offset of a zone from UTC at an instant (taken at noon of each day: DST hours blur, which sample data may). */
function offsetFn(timeZone: string): (t: number) => number {
  const f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
  return (t) => {
    const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute)) - t;
  };
}

const INT_COLUMNS = new Set(["id", "account_id", "guest_id", "location_id", "campaign_id", "device_id"]);

/**
 * Many logins in one statement. PostgreSQL parses a VALUES list of tens of thousands of parameters
 * slowly; there one array per column, unnested, carries the rows (the bench's only dialect-specific SQL).
 */
async function insertLogins(db: DB, rows: Record<string, unknown>[]): Promise<void> {
  if (dialectOf(db) !== "postgres") {
    for (let i = 0; i < rows.length; i += 1500) await db.insertInto("logins").values(rows.slice(i, i + 1500) as never).execute();
    return;
  }
  const cols = Object.keys(rows[0]);
  const arrays = cols.map((c) => sql`${rows.map((r) => r[c])}::${sql.raw(INT_COLUMNS.has(c) ? "integer[]" : "text[]")}`);
  await sql`insert into logins (${sql.join(cols.map((c) => sql.ref(c)))}) select * from unnest(${sql.join(arrays)})`.execute(db);
}

export async function buildAnalyticsData(
  db: DB,
  accountId: number,
  opts: { logins: number; locations: number; days: number; lastDay: string; log: (m: string) => void },
): Promise<AnalyticsData> {
  const rng = seededRng(2026);
  const now = `${opts.lastDay} 23:59:59`;
  const locationIds: number[] = [];
  const zones: string[] = [];
  for (let i = 0; i < opts.locations; i++) {
    const timezone = ZONES[i % ZONES.length];
    zones.push(timezone);
    locationIds.push(
      await createRepositories().locations.insert(db, {
        account_id: accountId, name: `Bench Venue ${i + 1}`, address1: `${i + 1} Main Street`, town: "Springfield", state: "IL",
        zipcode: "62701", country: "US", phone_number: "(217)555-0100", timezone, portal_slug: `bench-${accountId}-${i}`,
        date_created: now, last_modified: now, deleted: 0,
      }),
    );
  }
  const lastT = Date.parse(`${opts.lastDay}T00:00:00Z`);
  const dayStarts = Array.from({ length: opts.days }, (_, d) => lastT - (opts.days - 1 - d) * DAY_MS);
  const days = dayStarts.map((t) => new Date(t).toISOString().slice(0, 10));
  const pickDay = sampler(dayStarts.map((t) => WEEKLY[new Date(t).getUTCDay()]));
  const pickHour = sampler(HOURLY);
  const offsets = zones.map((z) => {
    const offset = offsetFn(z);
    return dayStarts.map((t) => offset(t + DAY_MS / 2));
  });

  // One guest per five logins; guest g's home venue is g mod 20, so every venue sees every login type.
  const guestCount = Math.ceil(opts.logins / 5);
  const typeOf = (g: number) => TYPE_SLOTS[Math.floor(g / opts.locations) % TYPE_SLOTS.length];
  const hex = (x: number) => x.toString(16).toUpperCase().padStart(2, "0");
  const macOf = (g: number) => `02:00:${hex((g >>> 16) & 0xff)}:${hex((g >>> 8) & 0xff)}:${hex(g & 0xff)}:00`;
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

  // Kept beside the logins as they are drawn: logins per location, local day and hour (hourly_logins),
  // and each guest's first login (daily_new_guests counts it on that local day).
  const hourly = new Map<string, number>();
  const firstSeen = new Map<number, { wall: number; day: number }>();

  await db.transaction().execute(async (trx) => {
    const CHUNK = 3000; // 9 values a row: under SQLite's 32766 and PostgreSQL's 65535 parameters
    for (let start = 0; start < guestCount; start += CHUNK) {
      const rows = [];
      for (let g = start; g < Math.min(guestCount, start + CHUNK); g++) {
        rows.push({
          id: g + 1, account_id: accountId, social_network: typeOf(g), network_user_id: `bench-${g + 1}`,
          full_name: `Guest Number${g + 1}`, email: `guest${g + 1}@example.com`, phone_number: `+1555${String(g + 1).padStart(7, "0")}`,
          created_at: now, updated_at: now,
        });
      }
      await trx.insertInto("guests").values(rows).execute();
    }
    const LOGIN_CHUNK = 15_000;
    for (let start = 0; start < opts.logins; start += LOGIN_CHUNK) {
      const rows = [];
      for (let id = start + 1; id <= Math.min(opts.logins, start + LOGIN_CHUNK); id++) {
        // Squared draws make regulars: low guest numbers come back often.
        const r = rng();
        const g = Math.floor(guestCount * r * r);
        const l = g % opts.locations;
        const d = pickDay(rng());
        const wall = dayStarts[d] + pickHour(rng()) * 3_600_000 + Math.floor(rng() * 3_600_000);
        const hourKey = `${l}|${d}|${Math.floor((wall - dayStarts[d]) / 3_600_000)}`;
        hourly.set(hourKey, (hourly.get(hourKey) ?? 0) + 1);
        const seen = firstSeen.get(g);
        if (!seen || wall < seen.wall) firstSeen.set(g, { wall, day: d });
        rows.push({
          id, account_id: accountId, guest_id: g + 1, location_id: locationIds[l], campaign_id: 1, device_id: null,
          login_type: typeOf(g), client_mac: macOf(g), ...AGENTS[g % AGENTS.length],
          logged_at: new Date(wall - offsets[l][d]).toISOString().slice(0, 19).replace("T", " "), local_day: days[d],
        });
      }
      await insertLogins(trx, rows);
      if (start % 150_000 === 0 && start > 0) opts.log(`  ${start} logins inserted (${elapsed()})`);
    }
    opts.log(`  ${opts.logins} logins inserted (${elapsed()}); building the aggregates`);

    await trx
      .insertInto("guest_locations")
      .columns(["guest_id", "location_id", "campaign_id", "first_login_at"])
      .expression((eb) =>
        eb
          .selectFrom("logins")
          .select((s) => ["guest_id", "location_id", s.fn.min("campaign_id").as("campaign_id"), s.fn.min("logged_at").as("first_login_at")])
          .groupBy(["guest_id", "location_id"]),
      )
      .execute();
    await trx
      .insertInto("daily_logins")
      .columns(["location_id", "day", "login_type", "count"])
      .expression((eb) =>
        eb
          .selectFrom("logins")
          .select((s) => ["location_id", "local_day", "login_type", s.fn.countAll<number>().as("count")])
          .groupBy(["location_id", "local_day", "login_type"]),
      )
      .execute();
    await trx
      .insertInto("daily_visitors")
      .columns(["location_id", "day", "guest_id"])
      .expression((eb) => eb.selectFrom("logins").select(["location_id", "local_day", "guest_id"]).distinct())
      .execute();
    await trx
      .insertInto("daily_visits")
      .columns(["location_id", "day", "count"])
      .expression((eb) =>
        eb
          .selectFrom("daily_visitors")
          .select((s) => ["location_id", "day", s.fn.countAll<number>().as("count")])
          .groupBy(["location_id", "day"]),
      )
      .execute();
    await trx
      .insertInto("guest_macs")
      .columns(["account_id", "client_mac", "guest_id", "last_login_at"])
      .expression((eb) =>
        eb
          .selectFrom("logins")
          .select((s) => ["account_id", "client_mac", "guest_id", s.fn.max("logged_at").as("last_login_at")])
          .groupBy(["account_id", "client_mac", "guest_id"]),
      )
      .execute();
    const hourRows = [...hourly].map(([key, count]) => {
      const [l, d, hour] = key.split("|").map(Number);
      return { location_id: locationIds[l], day: days[d], hour, count };
    });
    for (let i = 0; i < hourRows.length; i += 5000) await trx.insertInto("hourly_logins").values(hourRows.slice(i, i + 5000)).execute();
    const fresh = new Map<string, number>();
    for (const [g, { day }] of firstSeen) {
      const key = `${g % opts.locations}|${day}`;
      fresh.set(key, (fresh.get(key) ?? 0) + 1);
    }
    const freshRows = [...fresh].map(([key, count]) => {
      const [l, d] = key.split("|").map(Number);
      return { location_id: locationIds[l], day: days[d], count };
    });
    for (let i = 0; i < freshRows.length; i += 5000) await trx.insertInto("daily_new_guests").values(freshRows.slice(i, i + 5000)).execute();
  });
  // Explicit ids leave PostgreSQL's sequences behind; and its planner wants the statistics autovacuum would gather.
  if (dialectOf(db) === "postgres") {
    for (const t of ["guests", "logins"]) {
      await sql`select setval(pg_get_serial_sequence(${t}, 'id'), (select max(id) from ${sql.table(t)}))`.execute(db);
    }
    await sql`analyze`.execute(db);
  }
  opts.log(`  database ready (${elapsed()})`);
  return { locationIds, firstDay: days[0], lastDay: days[days.length - 1], logins: opts.logins, guests: guestCount };
}
