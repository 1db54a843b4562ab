/**
 * The audit log: every write through the API, the console or the command line, with who (owner,
 * sub-user, command line), what (action, object ids, fields changed; never a secret's value), when
 * and from which address. Kept for the account's audit_retention_days (0: for ever).
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("audit_log")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull())
    .addColumn("at", "varchar(19)", (c) => c.notNull())
    // owner, sub-user or cli
    .addColumn("actor_type", "varchar(16)", (c) => c.notNull())
    .addColumn("sub_user_id", "integer")
    // The actor as it was named then (a sub-user's e-mail stays readable after it is deleted).
    .addColumn("actor", "varchar(254)", (c) => c.notNull())
    // api, console or cli
    .addColumn("via", "varchar(16)", (c) => c.notNull())
    .addColumn("action", "varchar(64)", (c) => c.notNull())
    // JSON: {"location_id":[3]}
    .addColumn("objects", "text", (c) => c.notNull())
    // ",location_id:3," for filtering by object on either database
    .addColumn("object_keys", "text", (c) => c.notNull())
    // JSON: {"location_name":"Pier A","password":"(changed)"}
    .addColumn("changes", "text", (c) => c.notNull())
    .addColumn("address", "varchar(45)", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("audit_log_account_id").on("audit_log").columns(["account_id", "id"]).execute();
  await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at"]).execute();
  await db.schema.alterTable("accounts").addColumn("audit_retention_days", "integer", (c) => c.notNull().defaultTo(365)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("accounts").dropColumn("audit_retention_days").execute();
  await db.schema.dropTable("audit_log").execute();
}
