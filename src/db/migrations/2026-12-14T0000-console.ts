/**
 * The operator console: its sign-in sessions, kept in the database so that every instance behind a
 * load balancer knows them and a sign-out ends them everywhere; and the number of new guests per
 * location and local day beside the other daily aggregates, so that the console's "new against
 * returning" chart reads one row per day instead of every guest. Existing guests are counted on the
 * local day of their first login at each location (the time zone of the location now).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("console_sessions")
    // SHA-256 of the cookie's token: a copy of the table does not sign anyone in.
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("sub_user_id", "integer")
    .addColumn("csrf_token", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", "varchar(19)", (c) => c.notNull())
    .addColumn("last_seen_at", "varchar(19)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(19)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("console_sessions_expiry").on("console_sessions").column("expires_at").execute();

  // The console's guest list: an account's guests newest first, paged by id.
  await db.schema.createIndex("guests_account_id").on("guests").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("daily_new_guests")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    // Sharded like daily_logins and daily_visits (2026-12-13): each PostgreSQL connection adds to its own row.
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("daily_new_guests_pk", ["location_id", "day", "shard"])
    .execute();

  const rows = await db
    .selectFrom("guest_locations as g")
    .innerJoin("locations as l", "l.id", "g.location_id")
    .select(["g.location_id", "g.first_login_at", "l.timezone"])
    .execute();
  const counts = new Map<string, number>();
  const formats = new Map<string, Intl.DateTimeFormat>();
  for (const r of rows as { location_id: number; first_login_at: string; timezone: string }[]) {
    let f = formats.get(r.timezone);
    if (!f) {
      try {
        f = new Intl.DateTimeFormat("en-CA", { timeZone: r.timezone, year: "numeric", month: "2-digit", day: "2-digit" });
      } catch {
        f = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit" });
      }
      formats.set(r.timezone, f);
    }
    const day = f.format(new Date(`${r.first_login_at.replace(" ", "T")}Z`));
    const key = `${r.location_id}|${day}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const values = [...counts].map(([key, count]) => {
    const [location, day] = key.split("|");
    return { location_id: Number(location), day, shard: 0, count };
  });
  for (let i = 0; i < values.length; i += 500) {
    await db.insertInto("daily_new_guests").values(values.slice(i, i + 500)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("daily_new_guests").execute();
  await db.schema.dropTable("console_sessions").execute();
}
