/**
 * A webhook's deliveries in one order that never changes behind the worker (docs/guest-data.md,
 * "Delivery"). On PostgreSQL several transactions queue events at once (accounting lanes, logins),
 * and the ids a sequence hands them do not follow the order they commit in: a worker sending by id
 * could send 50 while 49 was still uncommitted, and 49 after it. Each delivery now records the
 * transaction that queued it (`tx`, PostgreSQL's 64-bit transaction id, given by the column's
 * default in every insert) and is sent in (tx, id) order once every older transaction has ended.
 * On SQLite (one writer, ids in commit order) `tx` stays 0 and the order is the ids'.
 */
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  // Rows already queued keep 0: they were queued before any new one, and sort first.
  await db.schema.alterTable("webhook_deliveries").addColumn("tx", "bigint", (c) => c.notNull().defaultTo(0)).execute();
  if (dialectOf(db) === "postgres") {
    await sql`alter table webhook_deliveries alter column tx set default (pg_current_xact_id()::text::bigint)`.execute(db);
  }
  await db.schema.dropIndex("webhook_deliveries_queue").execute();
  await db.schema.createIndex("webhook_deliveries_queue").on("webhook_deliveries").columns(["status", "webhook_id", "tx", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("webhook_deliveries_queue").execute();
  await db.schema.createIndex("webhook_deliveries_queue").on("webhook_deliveries").columns(["status", "webhook_id", "id"]).execute();
  await db.schema.alterTable("webhook_deliveries").dropColumn("tx").execute();
}
