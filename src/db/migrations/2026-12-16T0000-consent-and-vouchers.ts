/**
 * Consent at login and vouchers (docs/guest-data.md).
 *
 * Consent: each login records whether the guest accepted the campaign's terms and ticked its
 * marketing opt-in, with the versions of both texts they saw (the login's logged_at is when);
 * the guest keeps the latest marketing choice of a page that asked for one.
 *
 * Vouchers: batches of codes with their limits, the locations they are good for, each code's first
 * use and revocation, and the devices that used it. A login and a portal credential name the voucher
 * they came through, so RADIUS can apply its limits.
 */
import type { Kysely } from "kysely";
import { BIG, idColumn, idColumnType } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  for (const [col, type] of [
    ["terms_accepted", "integer"],
    ["marketing_opt_in", "integer"],
  ] as const) {
    await db.schema.alterTable("logins").addColumn(col, type, (c) => c.notNull().defaultTo(0)).execute();
  }
  await db.schema.alterTable("logins").addColumn("terms_version", "varchar(64)", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("logins").addColumn("marketing_version", "varchar(64)", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("logins").addColumn("voucher_id", "integer").execute();

  await db.schema.alterTable("guests").addColumn("marketing_opt_in", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("guests").addColumn("marketing_opt_in_at", "varchar(19)").execute();
  await db.schema.alterTable("guests").addColumn("marketing_version", "varchar(64)", (c) => c.notNull().defaultTo("")).execute();

  await db.schema.alterTable("portal_credentials").addColumn("voucher_id", "integer").execute();

  await db.schema
    .createTable("voucher_batches")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("code_count", "integer", (c) => c.notNull())
    .addColumn("duration_minutes", "integer", (c) => c.notNull())
    .addColumn("data_cap", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("bandwidth_up", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("bandwidth_down", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("devices_per_code", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("expires_at", "varchar(19)")
    .addColumn("created_at", "varchar(19)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("voucher_batches_by_account").on("voucher_batches").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("voucher_batch_locations")
    .addColumn("batch_id", "integer", (c) => c.notNull().references("voucher_batches.id"))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addPrimaryKeyConstraint("voucher_batch_locations_pk", ["batch_id", "location_id"])
    .execute();

  await db.schema
    .createTable("vouchers")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("batch_id", "integer", (c) => c.notNull().references("voucher_batches.id"))
    .addColumn("code", "varchar(16)", (c) => c.notNull().unique())
    .addColumn("first_used_at", "varchar(19)")
    .addColumn("ends_at", "varchar(19)")
    .addColumn("revoked_at", "varchar(19)")
    .execute();
  await db.schema.createIndex("vouchers_by_batch").on("vouchers").columns(["batch_id", "id"]).execute();
  await db.schema.createIndex("vouchers_by_account").on("vouchers").columns(["account_id", "id"]).execute();

  await db.schema
    .createTable("voucher_devices")
    .addColumn("voucher_id", "integer", (c) => c.notNull().references("vouchers.id"))
    .addColumn("device_key", "varchar(64)", (c) => c.notNull())
    .addColumn("first_used_at", "varchar(19)", (c) => c.notNull())
    .addPrimaryKeyConstraint("voucher_devices_pk", ["voucher_id", "device_key"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["voucher_devices", "vouchers", "voucher_batch_locations", "voucher_batches"]) await db.schema.dropTable(t).execute();
  await db.schema.alterTable("portal_credentials").dropColumn("voucher_id").execute();
  for (const c of ["marketing_opt_in", "marketing_opt_in_at", "marketing_version"]) await db.schema.alterTable("guests").dropColumn(c).execute();
  for (const c of ["terms_accepted", "marketing_opt_in", "terms_version", "marketing_version", "voucher_id"]) {
    await db.schema.alterTable("logins").dropColumn(c).execute();
  }
}
