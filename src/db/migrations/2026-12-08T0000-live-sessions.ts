/**
 * Live sessions (GET /api/session-list): the guest's IP address as the gateway reports it in
 * accounting (Framed-IP-Address), and a partial index over the sessions still open, by location,
 * so listing a location's live sessions reads those rows only, not the 90 days of closed ones.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("radius_sessions").addColumn("framed_ip", "varchar(45)").execute();
  await db.schema
    .createIndex("radius_sessions_open")
    .on("radius_sessions")
    .columns(["location_id", "id"])
    .where(sql.ref("stopped_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("radius_sessions_open").execute();
  await db.schema.alterTable("radius_sessions").dropColumn("framed_ip").execute();
}
