/**
 * PostgreSQL: every write to a catalogue table (what instances cache: accounts, identifiers,
 * sub-users, locations and their options, devices, campaigns) announces itself on the channel
 * `guestwifi_catalogue`, naming the schema, when it commits; instances that listen drop what they
 * cached (src/db/change-watch.ts). One notification per statement; PostgreSQL folds the equal ones
 * of a transaction into one. SQLite has one writer per file and watches its data_version instead.
 */
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.js";

const TABLES = ["accounts", "api_identifiers", "sub_users", "locations", "location_options", "devices", "campaigns"];

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`create or replace function guestwifi_catalogue_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('guestwifi_catalogue', current_schema());
      return null;
    end $$`.execute(db);
  for (const t of TABLES) {
    await sql`create trigger ${sql.raw(`${t}_catalogue_changed`)} after insert or update or delete or truncate on ${sql.table(t)}
      for each statement execute function guestwifi_catalogue_changed()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  for (const t of TABLES) await sql`drop trigger ${sql.raw(`${t}_catalogue_changed`)} on ${sql.table(t)}`.execute(db);
  await sql`drop function guestwifi_catalogue_changed()`.execute(db);
}
