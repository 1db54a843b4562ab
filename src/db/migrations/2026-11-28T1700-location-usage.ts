/**
 * Octets used per location and local day (`daily_location_usage`), kept by the database itself from
 * `daily_usage` (one row per guest, location and day), so that the console's overview and the
 * analytics read a few rows per day instead of summing every guest's row of it: at a venue with
 * 200,000 guests a day, the overview summed 200,000 rows of today at every call (71 ms on SQLite,
 * the event loop stopped meanwhile).
 *
 * Triggers add what each insert or update of `daily_usage.octets` adds, so every writer (RADIUS
 * accounting's statements, the demo generator, a test's direct insert) keeps it without knowing it.
 * Like the other hot counters it has a `shard` in its key: on PostgreSQL each connection adds to its
 * own row (pg_backend_pid() % 16, as counterShard), so concurrent accounting batches of one stadium
 * wait for each other's row lock only when their connections' process ids share a remainder;
 * readers sum the shards. SQLite writes shard 0.
 *
 * A row of `daily_usage` never changes its location or day (erasure moves it to another guest:
 * nothing to add). Deleting rows of `daily_usage` leaves the totals as they are, as deleting a
 * guest leaves the login counters.
 */
import { type Kysely, sql } from "kysely";
import { BIG, dialectOf } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("daily_location_usage")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("octets", BIG, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_location_usage_pk", ["location_id", "day", "shard"])
    .execute();
  await sql`insert into daily_location_usage (location_id, day, shard, octets)
    select location_id, day, 0, sum(octets) from daily_usage group by location_id, day`.execute(db);
  if (dialectOf(db) === "postgres") {
    // Statement triggers with transition tables: a statement that writes many guests' rows (a batch
    // of Interim-Updates) adds to each location's day once, not once per row. An INSERT ... ON
    // CONFLICT DO UPDATE fires both: its inserted rows reach the first, its updated ones the second.
    // A row's location and day never change, so an update adds the new octets less the old per
    // location and day (a guest's rows moved by erasure add nothing). Rows are locked in key order.
    await sql`create or replace function guestwifi_location_usage_inserted() returns trigger language plpgsql as $$
      begin
        insert into daily_location_usage (location_id, day, shard, octets)
          select location_id, day, pg_backend_pid() % 16, sum(octets) from n
          group by location_id, day having sum(octets) <> 0 order by location_id, day
          on conflict (location_id, day, shard) do update set octets = daily_location_usage.octets + excluded.octets;
        return null;
      end $$`.execute(db);
    await sql`create or replace function guestwifi_location_usage_updated() returns trigger language plpgsql as $$
      begin
        insert into daily_location_usage (location_id, day, shard, octets)
          select location_id, day, pg_backend_pid() % 16, sum(grown)
          from (select location_id, day, octets as grown from n union all select location_id, day, -octets from o) d
          group by location_id, day having sum(grown) <> 0 order by location_id, day
          on conflict (location_id, day, shard) do update set octets = daily_location_usage.octets + excluded.octets;
        return null;
      end $$`.execute(db);
    await sql`create trigger daily_usage_location_inserted after insert on daily_usage
      referencing new table as n for each statement execute function guestwifi_location_usage_inserted()`.execute(db);
    await sql`create trigger daily_usage_location_updated after update on daily_usage
      referencing old table as o new table as n for each statement execute function guestwifi_location_usage_updated()`.execute(db);
  } else {
    await sql`create trigger daily_usage_location_insert after insert on daily_usage begin
      insert into daily_location_usage (location_id, day, shard, octets) values (new.location_id, new.day, 0, new.octets)
        on conflict (location_id, day, shard) do update set octets = octets + excluded.octets;
      end`.execute(db);
    await sql`create trigger daily_usage_location_update after update of octets on daily_usage when new.octets <> old.octets begin
      insert into daily_location_usage (location_id, day, shard, octets) values (new.location_id, new.day, 0, new.octets - old.octets)
        on conflict (location_id, day, shard) do update set octets = octets + excluded.octets;
      end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger daily_usage_location_inserted on daily_usage`.execute(db);
    await sql`drop trigger daily_usage_location_updated on daily_usage`.execute(db);
    await sql`drop function guestwifi_location_usage_inserted()`.execute(db);
    await sql`drop function guestwifi_location_usage_updated()`.execute(db);
  } else {
    await sql`drop trigger daily_usage_location_insert`.execute(db);
    await sql`drop trigger daily_usage_location_update`.execute(db);
  }
  await db.schema.dropTable("daily_location_usage").execute();
}
