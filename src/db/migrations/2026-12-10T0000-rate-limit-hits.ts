/**
 * Rate-limit counters on PostgreSQL, so that instances sharing the database count together: one row
 * per limiter key and fixed window (the start of the window, in ms since the epoch).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("key", "varchar(255)", (c) => c.notNull())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limit_hits_pk", ["key", "window_start"])
    .execute();
  await db.schema.createIndex("rate_limit_hits_window").on("rate_limit_hits").column("window_start").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limit_hits").execute();
}
