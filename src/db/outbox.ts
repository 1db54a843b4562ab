/**
 * What the outboxes share (webhook_deliveries, messages): rows written in the transaction of the
 * change that caused them, sent by a worker that takes each row with a lease.
 *
 * - A row is taken with a conditional UPDATE that only one instance wins (`claimLease`), for the
 *   attempt's bound plus a margin; its outcome is recorded only while the lease is still held
 *   (`finishLease`), together with a line of its delivery log. An instance killed mid-attempt
 *   leaves a lease that runs out: the row is taken again (at least once, never lost).
 * - A failed attempt is tried again after a backoff that doubles up to an hour, until a time after
 *   which the row is failed (`afterFailure`).
 * - The worker's loop (`startOutboxLoop`) reads again at once while it finds work, else after its
 *   poll interval, and is stopped by waiting for the pass under way.
 * - A write that queues a row wakes the workers of this process on its database once it has
 *   committed (`outboxWritten`, through afterCommit): a row is sent at once, not at the next poll.
 *   The poll stays for rows queued by other instances and for retries that come due.
 */
import { type Kysely, sql } from "kysely";
import type { BackgroundFailures } from "./background-failures.js";
import { type DB, databaseIdentity } from "./database.js";
import { dialectOf } from "./dialect.js";
import { afterCommit, transaction } from "./transaction.js";

/** The outbox tables and their delivery logs (the log's column naming the row). */
const LOGS = {
  webhook_deliveries: { table: "webhook_attempts", key: "delivery_id" },
  messages: { table: "message_attempts", key: "message_id" },
} as const;

export type OutboxTable = keyof typeof LOGS;

const MAX_BACKOFF_MS = 3_600_000;

/** Backoff before attempt n+1 after n failed attempts: base * 2^(n-1), at most an hour, plus up to 10% jitter. */
export function backoffMs(baseMs: number, failedAttempts: number): number {
  const d = Math.min(baseMs * 2 ** Math.max(0, failedAttempts - 1), MAX_BACKOFF_MS);
  return Math.round(d * (1 + Math.random() * 0.1));
}

export type NextState = { status: "failed" } | { status: "pending"; nextAttemptMs: number };

/** After a failed attempt that ended at `endMs`: another try after the backoff, or failed once `giveUpAtMs` has come. */
export function afterFailure(endMs: number, giveUpAtMs: number, baseMs: number, failedAttempts: number): NextState {
  if (endMs >= giveUpAtMs) return { status: "failed" };
  return { status: "pending", nextAttemptMs: Math.min(endMs + backoffMs(baseMs, failedAttempts), giveUpAtMs) };
}

/** The generic helpers name their table at run time; the columns they touch exist in every outbox table. */
const loose = (db: DB) => db as unknown as Kysely<any>;

/**
 * Takes the row for this instance until `leaseUntil`: true for exactly one of several instances
 * asking at once (the update re-checks the row it waited for). Counts the attempt.
 */
export async function claimLease(db: DB, table: OutboxTable, id: number, nowMs: number, leaseUntil: number): Promise<boolean> {
  const r = await loose(db)
    .updateTable(table)
    .set((eb) => ({ lease_until_ms: leaseUntil, attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("lease_until_ms", "<", nowMs)
    .where("next_attempt_ms", "<=", nowMs)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** One line of a delivery log. */
export interface AttemptLine {
  attempted_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** Where a row goes after an attempt: delivered/sent, failed, or pending again (at `nextAttemptMs`). */
export interface LeaseOutcome {
  status: string;
  nextAttemptMs?: number;
  /** Other columns of the row to set with the outcome. */
  set?: Record<string, unknown>;
  /** Extra columns of the log line (messages: the channel). */
  log?: Record<string, unknown>;
}

/**
 * Records an attempt's outcome and its log line, if this instance still holds the row (its lease is
 * `leaseUntil` and it is still pending). False when it does not: another instance took it over, or
 * it was cancelled meanwhile.
 */
export async function finishLease(db: DB, table: OutboxTable, id: number, leaseUntil: number, attempt: AttemptLine | undefined, next: LeaseOutcome): Promise<boolean> {
  const log = LOGS[table];
  const run = async (trx: Kysely<any>) => {
    const end = attempt ? attempt.attempted_ms + attempt.duration_ms : Date.now();
    const r = await trx
      .updateTable(table)
      .set({
        status: next.status,
        lease_until_ms: 0,
        ...(attempt ? { last_status: attempt.status_code, last_error: attempt.error } : {}),
        ...(next.nextAttemptMs !== undefined ? { next_attempt_ms: next.nextAttemptMs } : {}),
        ...(next.status !== "pending" ? { finished_ms: end } : {}),
        ...next.set,
      })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .where("lease_until_ms", "=", leaseUntil)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    if (attempt) await trx.insertInto(log.table).values({ [log.key]: id, ...attempt, ...next.log }).execute();
    return true;
  };
  return db.isTransaction ? run(loose(db)) : transaction(db, (trx) => run(loose(trx)));
}

/**
 * A worker's own bookkeeping in transaction `trx` (a claim, outcomes) does not wait for PostgreSQL's
 * WAL flush, so that it does not queue behind, nor add to, the flushes of the writes that answer
 * guests (a login burst). Were the database host to crash within the moment before the flush, the
 * claim or the outcome is lost and the row is sent again: at-least-once delivery allows it (the
 * receiver deduplicates on the message id). The writes that queue rows keep the flush of the change
 * they belong to. Nothing on SQLite, whose commits in WAL mode wait for no flush already.
 */
export async function skipFlushWait(trx: DB): Promise<void> {
  if (dialectOf(trx) === "postgres") await sql`set local synchronous_commit = off`.execute(trx);
}

/**
 * finishLease of several rows held under one lease, each after one attempt, all going to the same
 * final `status` (a webhook run's delivered events): one update and one insert of their log lines,
 * in the caller's transaction. Rows no longer held are left as they are.
 */
export async function finishLeasesAs(db: DB, table: OutboxTable, leaseUntil: number, status: string, done: { id: number; attempt: AttemptLine }[]): Promise<void> {
  if (done.length === 0) return;
  if (!db.isTransaction) throw new Error("finishLeasesAs runs in the caller's transaction");
  const log = LOGS[table];
  // Each row's own value; cast, so PostgreSQL knows the parameters' type.
  const each = (value: (a: AttemptLine) => number | null) =>
    sql`case id ${sql.join(
      done.map((d) => sql`when ${d.id} then cast(${value(d.attempt)} as bigint)`),
      sql` `,
    )} end`;
  const held = await loose(db)
    .updateTable(table)
    .set({
      status,
      lease_until_ms: 0,
      last_status: each((a) => a.status_code),
      last_error: null,
      finished_ms: each((a) => a.attempted_ms + a.duration_ms),
    })
    .where("id", "in", done.map((d) => d.id))
    .where("status", "=", "pending")
    .where("lease_until_ms", "=", leaseUntil)
    .returning("id")
    .execute();
  const ids = new Set(held.map((r: { id: number }) => Number(r.id)));
  const lines = done.filter((d) => ids.has(d.id)).map((d) => ({ [log.key]: d.id, ...d.attempt }));
  if (lines.length > 0) await loose(db).insertInto(log.table).values(lines).execute();
}

/**
 * Wake-ups of this process's outbox workers, by database (databaseIdentity): a write through
 * RADIUS's own pool (createSiblingDatabase) wakes the workers started on the service's database.
 * Keyed by pool, a session event queued by accounting on PostgreSQL waited for the worker's next
 * poll (WEBHOOK_POLL_MS) instead of going at once.
 */
const wakers = new WeakMap<object, Map<OutboxTable, Set<() => void>>>();

function wakersOf(db: DB, table: OutboxTable): Set<() => void> {
  const key = databaseIdentity(db);
  let byTable = wakers.get(key);
  if (!byTable) {
    byTable = new Map();
    wakers.set(key, byTable);
  }
  let set = byTable.get(table);
  if (!set) {
    set = new Set();
    byTable.set(table, set);
  }
  return set;
}

/** A write through `db` queued rows in `table`: its workers look once the write has committed (at once outside a transaction). */
export function outboxWritten(db: DB, table: OutboxTable): void {
  afterCommit(db, () => {
    for (const wake of wakersOf(db, table)) wake();
  });
}

/** Calls `wake` after every committed write of this process that queues rows in `table` of `db`. Returns the unsubscribe. */
export function onOutboxWrite(db: DB, table: OutboxTable, wake: () => void): () => void {
  const set = wakersOf(db, table);
  set.add(wake);
  return () => set.delete(wake);
}

export interface OutboxLoop {
  /** Look at the outbox now (after a write that queued something, or in tests). */
  kick(): void;
  /** Stops reading and waits for the pass under way (its attempts included). */
  stop(): Promise<void>;
}

/**
 * Runs `pass` (one read of the outbox and its attempts; it answers how many rows it found) at
 * once, again at once while it finds rows, else every `pollMs`. A pass that throws (the database
 * away or busy, or an attempt that could not be recorded) is reported to `failures` (one log line
 * per spell) and tried again after `pollMs`: the bound on how long a busy database delays the outbox
 * beyond its own lock.
 */
export function startOutboxLoop(pollMs: number, pass: () => Promise<number>, failures: BackgroundFailures): OutboxLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** A kick during a pass: that pass may have read before the new rows, so read again at once. */
  let kicked = false;

  function schedule(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref?.();
  }

  function tick(): void {
    if (running || stopped) return;
    kicked = false;
    running = pass()
      .then((n) => {
        failures.succeeded();
        schedule(n > 0 || kicked ? 0 : pollMs);
      })
      .catch((err) => {
        failures.failed(err, `read again in ${pollMs} ms`);
        schedule(pollMs);
      })
      .finally(() => {
        running = undefined;
      });
  }

  schedule(0);
  return {
    kick() {
      if (running) kicked = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
