/**
 * The one place that knows which database we are on. Everything dialect-specific is named here.
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from "kysely";

export type DialectName = "sqlite" | "postgres";

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** An auto-incrementing integer primary key on either dialect. */
export function idColumnType(db: Kysely<any>) {
  return dialectOf(db) === "postgres" ? ("serial" as const) : ("integer" as const);
}

export function idColumn(db: Kysely<any>) {
  return (c: ColumnDefinitionBuilder) =>
    dialectOf(db) === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement();
}

/** Counters that can pass 2^31 (bytes, seconds). pg returns int8 as string; the pool parses it. */
export const BIG = "bigint" as const;

/** `col + n` as an expression, for atomic counters in upserts. */
export function increment(column: string, by: number | bigint = 1) {
  return sql<number>`${sql.ref(column)} + ${by}`;
}


/**
 * Shards of a hot counter (logins of one location and day): on PostgreSQL each connection adds
 * to its own row (its backend id modulo this), so concurrent logins never queue for one row
 * lock; readers sum the shards. SQLite has one writer at a time and keeps one row (shard 0).
 */
export const COUNTER_SHARDS = 16;

/** The shard this connection (or transaction) adds to. */
export function counterShard(db: Kysely<any>) {
  return dialectOf(db) === "postgres" ? sql<number>`pg_backend_pid() % ${sql.lit(COUNTER_SHARDS)}` : sql<number>`0`;
}
