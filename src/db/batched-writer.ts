/**
 * How a stream of small write jobs (RADIUS accounting packets) reaches the database, chosen here
 * by dialect so that callers never ask which one they are on:
 * - SQLite has one writer and a commit costs far more than the handful of statements a job needs,
 *   so jobs that arrive together (in one poll round of the event loop, or while a transaction
 *   runs) are written in one transaction: one commit a burst (group commit). If a batch fails, its
 *   jobs are retried one by one so only the faulty one fails.
 * - PostgreSQL: one transaction per job, run in parallel over the pool (several instances may
 *   write the same rows; the caller's writes reconcile themselves).
 */
import type { DB } from "./database.js";
import { dialectOf } from "./dialect.js";

/** Writes `jobs` in one transaction of its own, all or none; one result per job, in order. */
export type WriteBatch<J, R> = (jobs: J[]) => Promise<R[]>;
/** Writes one job (possibly together with others); resolves once it is committed. */
export type SubmitWrite<J, R> = (job: J) => Promise<R>;

/** Bounds how long one transaction holds the database (and how much one failure retries). */
const MAX_BATCH = 128;

interface Pending<J, R> {
  job: J;
  resolve(result: R): void;
  reject(err: unknown): void;
}

class GroupCommit<J, R> {
  private queue: Pending<J, R>[] = [];
  private draining: Promise<void> | undefined;

  constructor(private readonly writeBatch: WriteBatch<J, R>) {}

  submit(job: J): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      // better-sqlite3 runs a whole transaction within microtasks, before the next datagram is
      // read; waiting for the check phase lets every datagram of this poll round join the batch.
      this.draining ??= new Promise<void>((ready) => setImmediate(ready))
        .then(() => this.drain())
        .finally(() => {
          this.draining = undefined;
        });
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const results = await this.writeBatch(batch.map((p) => p.job));
        for (let i = 0; i < batch.length; i++) batch[i].resolve(results[i]);
      } catch (err) {
        if (batch.length === 1) {
          batch[0].reject(err);
          continue;
        }
        for (const p of batch) {
          try {
            const [result] = await this.writeBatch([p.job]);
            p.resolve(result);
          } catch (single) {
            p.reject(single);
          }
        }
      }
    }
  }
}

export function createBatchedWriter<J, R>(db: DB, writeBatch: WriteBatch<J, R>): SubmitWrite<J, R> {
  if (dialectOf(db) === "postgres") return async (job) => (await writeBatch([job]))[0];
  const group = new GroupCommit(writeBatch);
  return (job) => group.submit(job);
}
