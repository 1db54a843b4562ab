/**
 * Rate-limit counters on PostgreSQL, so that instances sharing the database count together: one row
 * per limiter key, with the start of its current window (ms since the epoch) and its hits in it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("key", "varchar(255)", (c) => c.primaryKey())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_window").on("rate_limit_hits").column("window_start").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limit_hits").execute();
}
