/**
 * Transactions for writes that check something and then act on it. SQLite runs one transaction at a
 * time on its one connection, so a transaction alone makes check and act atomic there. PostgreSQL
 * runs them side by side (READ COMMITTED): the checking read must lock the rows it relies on, so a
 * concurrent delete waits for the write to commit, or the write sees the delete. The dialect
 * differences of that (lock clauses, error codes) live here.
 */
import type { DB } from "./database.js";
import { dialectOf } from "./dialect.js";

/**
 * `share`: a row the write relies on (it must not be deleted meanwhile); `update`: a row the write
 * changes; `hold`: a row whose writers take turns (a count-then-insert on its behalf stays exact)
 * while other transactions may still insert rows that reference it (FOR NO KEY UPDATE).
 */
export type RowLock = "share" | "update" | "hold";

interface Lockable<Q> {
  forShare(): Q;
  forUpdate(): Q;
  forNoKeyUpdate(): Q;
}

/**
 * The query with the row lock, when it runs in a PostgreSQL transaction. Locked rows are read again
 * after a concurrent writer commits, so `deleted = 0` in the query sees that writer's delete.
 */
export function withRowLock<Q extends Lockable<Q>>(db: DB, query: Q, lock: RowLock | undefined): Q {
  if (lock === undefined || !db.isTransaction || dialectOf(db) !== "postgres") return query;
  return lock === "share" ? query.forShare() : lock === "update" ? query.forUpdate() : query.forNoKeyUpdate();
}

/** Runs `fn` in a new transaction, or in the caller's when `db` already is one. */
export function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** PostgreSQL aborts one of two transactions that wait for each other's locks; running it again succeeds. */
const RETRYABLE_PG_CODES = new Set(["40P01", "40001"]);
const MAX_ATTEMPTS = 3;

/** A new transaction, run again (from the start) when PostgreSQL aborted it for a deadlock. */
export async function retryingTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE_PG_CODES.has((err as { code?: string }).code ?? "")) throw err;
    }
  }
}

/** Whether a unique index refused the row (PostgreSQL 23505; SQLite SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
