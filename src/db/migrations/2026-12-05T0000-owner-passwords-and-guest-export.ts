/**
 * Account owners get a password (for the console; set from the command line), stored only as a
 * salted scrypt hash, null until set. The guest export reads a location's guests in order of guest
 * id (guest_locations by location) and counts each guest's visit days at a location
 * (daily_visitors by guest): two indexes so each is a range scan instead of a table scan.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("accounts").addColumn("password_hash", "varchar(255)").execute();
  await db.schema.createIndex("guest_locations_location").on("guest_locations").columns(["location_id", "guest_id"]).execute();
  await db.schema.createIndex("daily_visitors_guest").on("daily_visitors").columns(["guest_id", "location_id", "day"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("daily_visitors_guest").execute();
  await db.schema.dropIndex("guest_locations_location").execute();
  await db.schema.alterTable("accounts").dropColumn("password_hash").execute();
}
