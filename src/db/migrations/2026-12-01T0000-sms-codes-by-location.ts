/**
 * The portal's daily SMS budget counts a location's codes since its local midnight on every send:
 * an index on (location_id, created_at) keeps that count to the day's rows instead of the table.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("sms_codes_location").on("sms_codes").columns(["location_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("sms_codes_location").execute();
}
