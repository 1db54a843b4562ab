/**
 * Guest data rights and signed webhooks:
 * - accounts.retention_days: guests not seen for that many days are erased by the retention job (0: off);
 * - webhooks: an account's subscriptions (target URL, events, optional locations, signing secret);
 * - webhook_deliveries: the outbox, one row per event and subscribed webhook, written in the
 *   transaction of the change that caused it, sent in id order per webhook (times in epoch ms);
 * - webhook_attempts: the delivery log, one row per HTTP attempt.
 * On PostgreSQL, writes to webhooks announce themselves like the catalogue tables do, so that the
 * per-account "has a webhook" flag cached by logins is dropped on every instance.
 */
import { type Kysely, sql } from "kysely";
import { BIG, dialectOf, idColumn, idColumnType } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("accounts").addColumn("retention_days", "integer", (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable("webhooks")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("url", "varchar(2048)", (c) => c.notNull())
    // ",guest.login,session.start," and ",1,2," ("" for every location): matched with LIKE.
    .addColumn("events", "varchar(255)", (c) => c.notNull())
    .addColumn("location_ids", "varchar(2000)", (c) => c.notNull().defaultTo(""))
    .addColumn("secret", "varchar(64)", (c) => c.notNull())
    .addColumn("date_created", "varchar(19)", (c) => c.notNull())
    .addColumn("last_modified", "varchar(19)", (c) => c.notNull())
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("webhooks_account").on("webhooks").columns(["account_id", "deleted"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("webhook_id", "integer", (c) => c.notNull().references("webhooks.id"))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("event_type", "varchar(32)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    // pending, delivered or failed
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_ms", BIG, (c) => c.notNull())
    .addColumn("next_attempt_ms", BIG, (c) => c.notNull())
    // An instance sending it holds it until then; 0 when nobody does.
    .addColumn("lease_until_ms", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("last_status", "integer")
    .addColumn("last_error", "varchar(255)")
    .addColumn("finished_ms", BIG)
    .execute();
  await db.schema.createIndex("webhook_deliveries_queue").on("webhook_deliveries").columns(["status", "webhook_id", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_log").on("webhook_deliveries").columns(["webhook_id", "id"]).execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("delivery_id", "integer", (c) => c.notNull().references("webhook_deliveries.id"))
    .addColumn("attempted_ms", BIG, (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "varchar(255)")
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery").on("webhook_attempts").columns(["delivery_id", "id"]).execute();

  if (dialectOf(db) === "postgres") {
    await sql`create trigger webhooks_catalogue_changed after insert or update or delete or truncate on webhooks
      for each statement execute function guestwifi_catalogue_changed()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_attempts").execute();
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhooks").execute();
  await db.schema.alterTable("accounts").dropColumn("retention_days").execute();
}
