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

/** Work queued by afterCommit on an open transaction (opened by `transaction`), by the transaction object. */
const committed = new WeakMap<DB, (() => unknown)[]>();

/**
 * A new transaction (every transaction of the application is opened here). Callbacks that
 * `afterCommit` queues on it run once it has committed, in order; a transaction that rolls back
 * (`fn` throws, or the commit fails) drops them. Kysely runs `fn`, then COMMIT, then resolves.
 */
export async function transaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  const queued: (() => unknown)[] = [];
  const result = await db.transaction().execute((trx) => {
    committed.set(trx, queued);
    return fn(trx);
  });
  for (const run of queued) runCommitted(run);
  return result;
}

/**
 * Runs `fn` once what `db` wrote is committed: after the commit of the transaction `db` is, or at
 * once when `db` is not a transaction (its statements commit as they run). For side effects that
 * must follow a commit and must not happen without one: a CoA with new limits, waking an outbox
 * worker. `fn` must not throw; a failure of it is reported as a process warning, never to the
 * writer, whose work has committed.
 */
export function afterCommit(db: DB, fn: () => unknown): void {
  if (!db.isTransaction) {
    runCommitted(fn);
    return;
  }
  const queued = committed.get(db);
  // A transaction opened around `transaction` would commit unseen: refuse rather than run too early.
  if (!queued) throw new Error("afterCommit: the transaction was not opened by transaction() of src/db/transaction.ts");
  queued.push(fn);
}

function runCommitted(fn: () => unknown): void {
  try {
    const out = fn();
    if (out instanceof Promise) out.catch(warn);
  } catch (err) {
    warn(err);
  }
}

function warn(err: unknown): void {
  process.emitWarning(err instanceof Error ? err : new Error(String(err)), "AfterCommitWarning");
}

/** Runs `fn` in a new transaction, or in the caller's when `db` already is one (afterCommit then waits for the caller's commit). */
export function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : transaction(db, fn);
}

/** PostgreSQL aborts one of two transactions that wait for each other's locks; running it again succeeds. */
const RETRYABLE_PG_CODES = new Set(["40P01", "40001"]);
const MAX_ATTEMPTS = 3;

/** A new transaction, run again (from the start) when PostgreSQL aborted it for a deadlock. */
export async function retryingTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, fn);
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
