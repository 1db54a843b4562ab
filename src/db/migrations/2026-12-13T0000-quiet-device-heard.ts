/**
 * PostgreSQL: marking an access point heard from (`last_heard_at` alone, about once a minute per AP
 * and instance) is no longer announced as a catalogue change: no cached row depends on it, and with
 * many APs every instance would drop its caches several times a second while those commits queued
 * on PostgreSQL's notification lock. The devices trigger of 2026-12-13T0000-notify-catalogue-changes
 * is replaced by one that fires on updates of every other column. A column added to devices later
 * must be added to this list (in a new migration).
 */
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.js";

const DEVICE_COLUMNS = [
  "id", "account_id", "location_id", "model_id", "name", "mac_address", "wan_ip", "radius_secret", "upgrade",
  "last_upgraded", "wifi_channel", "firmware_version", "status", "sync_response", "create_date", "update_date",
];

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`drop trigger devices_catalogue_changed on devices`.execute(db);
  await sql`create trigger devices_catalogue_changed after insert or ${sql.raw(`update of ${DEVICE_COLUMNS.join(", ")}`)} or delete or truncate on devices
    for each statement execute function guestwifi_catalogue_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`drop trigger devices_catalogue_changed on devices`.execute(db);
  await sql`create trigger devices_catalogue_changed after insert or update or delete or truncate on devices
    for each statement execute function guestwifi_catalogue_changed()`.execute(db);
}
