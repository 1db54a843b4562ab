/**
 * Keys the service makes for itself, made once and shared by every instance on the database (the
 * portal's signing key when PORTAL_SECRET is not set): instances agree without configuration, and a
 * restart does not invalidate the pages, OAuth round trips and SMS codes in flight.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("service_secrets")
    .addColumn("name", "varchar(64)", (c) => c.primaryKey())
    .addColumn("value", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", "varchar(19)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("service_secrets").execute();
}
