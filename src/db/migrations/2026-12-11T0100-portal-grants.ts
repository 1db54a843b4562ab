/**
 * Guests the portal let in without RADIUS (through a controller or a grant URL: UniFi, Omada,
 * Meraki), with their address and until when, so that the RFC 8908 captive-portal API can tell a
 * guest's device that it is online and for how long. Rows past their end are pruned as new ones come.
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("portal_grants")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("client_ip", "varchar(45)", (c) => c.notNull())
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull())
    .addColumn("granted_at", "varchar(19)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(19)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("portal_grants_by_address").on("portal_grants").columns(["location_id", "client_ip", "expires_at"]).execute();
  await db.schema.createIndex("portal_grants_expiry").on("portal_grants").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("portal_grants").execute();
}
