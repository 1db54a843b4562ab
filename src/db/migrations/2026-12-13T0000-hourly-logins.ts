/**
 * Logins per location, local day and local hour (0-23), for "busiest hours of the week". The day
 * is the location's local day, the same as daily_logins'; the hour is the local wall-clock hour
 * (on the day clocks go back, the repeated hour counts twice into one row). `shard` spreads the
 * counter of one busy hour over several rows on PostgreSQL, so concurrent logins do not wait for
 * one row lock; readers sum the shards.
 *
 * The table is filled from the logins already recorded. The local hour needs the location's time
 * zone, which SQLite cannot convert, so it is computed here in JavaScript for both databases (the
 * same Intl rules the application uses), a page of logins at a time.
 */
import type { Kysely } from "kysely";

const PAGE = 5_000;

/** The local day and hour of a stored UTC datetime (`YYYY-MM-DD HH:MM:SS`) in `timeZone`. */
function dayHourIn(formatters: Map<string, Intl.DateTimeFormat>, datetime: string, timeZone: string): { day: string; hour: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit" });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(`${datetime.replace(" ", "T")}Z`))) parts[p.type] = p.value;
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24 };
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("hourly_logins")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("hour", "integer", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("hourly_logins_pk", ["location_id", "day", "hour", "shard"])
    .execute();

  const formatters = new Map<string, Intl.DateTimeFormat>();
  const counts = new Map<string, { location_id: number; day: string; hour: number; count: number }>();
  let after = 0;
  for (;;) {
    const page: { id: number; location_id: number; logged_at: string; local_day: string; timezone: string }[] = await db
      .selectFrom("logins as g")
      .innerJoin("locations as l", "l.id", "g.location_id")
      .select(["g.id", "g.location_id", "g.logged_at", "g.local_day", "l.timezone"])
      .where("g.id", ">", after)
      .orderBy("g.id")
      .limit(PAGE)
      .execute();
    if (page.length === 0) break;
    for (const r of page) {
      let hour = 0;
      try {
        const local = dayHourIn(formatters, r.logged_at, r.timezone);
        // The day the login was counted on stays the day of record (a zone edited since, say).
        hour = local.day === r.local_day ? local.hour : local.day < r.local_day ? 0 : 23;
      } catch {
        hour = 0; // a zone this runtime does not know: the login still counts on its day
      }
      const key = `${r.location_id}|${r.local_day}|${hour}`;
      const c = counts.get(key);
      if (c) c.count++;
      else counts.set(key, { location_id: r.location_id, day: r.local_day, hour, count: 1 });
    }
    after = page[page.length - 1].id;
  }
  const rows = [...counts.values()].map((c) => ({ ...c, shard: 0 }));
  for (let i = 0; i < rows.length; i += 1_000) {
    await db.insertInto("hourly_logins").values(rows.slice(i, i + 1_000)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("hourly_logins").execute();
}
