/**
 * Controllers (UniFi Network, TP-Link Omada) as records of an account, and which controller lets the
 * guests of a location in. Credentials are stored sealed (AES-256-GCM, src/db/secret-box.ts), never
 * in clear. A location has at most one controller; the link sits in a table of its own so that the
 * locations table stays as it is.
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

const DT = "varchar(19)" as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("controllers")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("type", "varchar(16)", (c) => c.notNull())
    .addColumn("url", "varchar(2048)", (c) => c.notNull())
    .addColumn("site", "varchar(64)", (c) => c.notNull())
    .addColumn("auth", "varchar(16)", (c) => c.notNull())
    .addColumn("credentials", "text", (c) => c.notNull())
    .addColumn("tls_fingerprint", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("controllers_account").on("controllers").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("location_controllers")
    .addColumn("location_id", "integer", (c) => c.primaryKey().references("locations.id"))
    .addColumn("controller_id", "integer", (c) => c.notNull().references("controllers.id"))
    .execute();
  await db.schema.createIndex("location_controllers_controller").on("location_controllers").column("controller_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("location_controllers").execute();
  await db.schema.dropTable("controllers").execute();
}
