/**
 * Logins without hot rows. Every login added one to its location's row of the day in daily_logins
 * and, for a new visitor, daily_visits; on PostgreSQL the row lock is held until the commit is
 * flushed, so the logins of one location queued one after another. Both counters get a `shard`
 * in their primary key: each PostgreSQL connection adds to its own shard row (the application's
 * counterShard), readers sum the shards. Existing rows become shard 0. SQLite writes shard 0 only;
 * its tables are rebuilt because SQLite cannot change a primary key in place.
 *
 * rate_limit_hits becomes UNLOGGED on PostgreSQL: the portal's login limit counts every login of a
 * venue behind one address on one row, and a counter of a one-minute window does not need to
 * survive a crash, so its commit need not wait for the WAL flush (SQLite does not use that table).
 */
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.js";

const TABLES = [
  { name: "daily_logins", keys: ["location_id", "day", "login_type"], type: true },
  { name: "daily_visits", keys: ["location_id", "day"], type: false },
] as const;


export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  for (const t of TABLES) {
    if (postgres) {
      await db.schema.alterTable(t.name).addColumn("shard", "integer", (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable(t.name).dropConstraint(`${t.name}_pk`).execute();
      await db.schema.alterTable(t.name).addPrimaryKeyConstraint(`${t.name}_pk`, [...t.keys, "shard"] as never[]).execute();
      continue;
    }
    const next = `${t.name}_sharded`;
    let create = db.schema
      .createTable(next)
      .addColumn("location_id", "integer", (c) => c.notNull())
      .addColumn("day", "varchar(10)", (c) => c.notNull());
    if (t.type) create = create.addColumn("login_type", "varchar(16)", (c) => c.notNull());
    await create
      .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${t.name}_pk`, [...t.keys, "shard"] as never[])
      .execute();
    const cols = [...t.keys, "count"];
    await sql`insert into ${sql.table(next)} (${sql.join(cols.map((c) => sql.ref(c)))}) select ${sql.join(cols.map((c) => sql.ref(c)))} from ${sql.table(t.name)}`.execute(db);
    await db.schema.dropTable(t.name).execute();
    await db.schema.alterTable(next).renameTo(t.name).execute();
  }
  if (postgres) await sql`alter table rate_limit_hits set unlogged`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  for (const t of TABLES) {
    const next = `${t.name}_unsharded`;
    let create = db.schema
      .createTable(next)
      .addColumn("location_id", "integer", (c) => c.notNull())
      .addColumn("day", "varchar(10)", (c) => c.notNull());
    if (t.type) create = create.addColumn("login_type", "varchar(16)", (c) => c.notNull());
    await create
      .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${next}_pk`, [...t.keys] as never[])
      .execute();
    const keys = t.keys.map((c) => sql.ref(c));
    await sql`insert into ${sql.table(next)} (${sql.join(keys)}, count) select ${sql.join(keys)}, sum(count) from ${sql.table(t.name)} group by ${sql.join(keys)}`.execute(db);
    await db.schema.dropTable(t.name).execute();
    await db.schema.alterTable(next).renameTo(t.name).execute();
    // PostgreSQL names constraints per schema: the old name is free only now.
    if (postgres) await sql`alter table ${sql.table(t.name)} rename constraint ${sql.id(`${next}_pk`)} to ${sql.id(`${t.name}_pk`)}`.execute(db);
  }
  if (postgres) await sql`alter table rate_limit_hits set logged`.execute(db);
}
