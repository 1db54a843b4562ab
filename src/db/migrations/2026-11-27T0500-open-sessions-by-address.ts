/**
 * The RFC 8908 captive-portal API finds a device's open session by its address at a location. The
 * partial index of open sessions by location (radius_sessions_open) made that read every open
 * session of the location: 200,000 rows at a stadium, on every poll of every phone. This one
 * finds the address directly, whatever the number of guests online.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("radius_sessions_open_address")
    .on("radius_sessions")
    .columns(["location_id", "framed_ip", "id"])
    .where(sql.ref("stopped_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("radius_sessions_open_address").execute();
}
