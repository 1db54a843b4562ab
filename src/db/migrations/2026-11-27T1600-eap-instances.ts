/**
 * The instances that hold EAP conversations (issue 29): a conversation's TLS session lives in the
 * memory of the instance that began it, its State names that instance, and this table says where
 * the other instances hand it the rounds that reach them (docs/radius.md#eap-across-instances).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("eap_instances")
    // 16 hex digits: the instance id in the State attribute.
    .addColumn("instance_id", "varchar(16)", (c) => c.primaryKey())
    // host:port of its RADIUS authentication socket, as the other instances reach it.
    .addColumn("address", "varchar(300)", (c) => c.notNull())
    .addColumn("started_at", "varchar(19)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("eap_instances").execute();
}
