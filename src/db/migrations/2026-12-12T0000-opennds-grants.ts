/**
 * openNDS at faslevel 3: the portal does not send the guest to the router; the router's authmon
 * daemon polls the portal for the clients it may let in. One row per authorised client, waiting
 * to be collected: the location and router it is for, the router's gateway-name hash (authmon's
 * `gatewayhash`), the client's token (rhid) and the whole entry authmon hands to `ndsctl auth`.
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("opennds_grants")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("device_id", "integer", (c) => c.notNull())
    .addColumn("gateway_hash", "varchar(64)", (c) => c.notNull())
    .addColumn("rhid", "varchar(64)", (c) => c.notNull())
    .addColumn("entry", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", "varchar(19)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(19)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("opennds_grants_gateway").on("opennds_grants").columns(["location_id", "gateway_hash"]).execute();
  // Every poll drops the expired rows of all routers.
  await db.schema.createIndex("opennds_grants_expiry").on("opennds_grants").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("opennds_grants").execute();
}
