/**
 * How a stream of small write jobs (RADIUS accounting packets) reaches the database, chosen here
 * by dialect so that callers never ask which one they are on:
 * - SQLite has one writer and a commit costs far more than the handful of statements a job needs,
 *   so jobs that arrive together (in one poll round of the event loop, or while a transaction
 *   runs) are written in one transaction: one commit a burst (group commit). If a batch fails, its
 *   jobs are retried one by one so only the faulty one fails.
 * - PostgreSQL: the same group commit, in a few lanes side by side (half the pool's connections),
 *   a job's lane chosen by its key so that jobs touching the same rows (one guest's packets) take
 *   turns in one lane instead of waiting for each other's row locks. A transaction per packet held a
 *   connection for every packet's BEGIN and COMMIT (and its WAL flush); under a burst that emptied
 *   the pool. Several instances may still write the same rows: the caller's writes reconcile
 *   themselves, and a batch PostgreSQL aborts (a deadlock with another instance) is retried job by
 *   job like any failed batch.
 * Either way a job resolves only once its transaction committed.
 */
import { type DB, poolStats } from "./database.js";
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

  constructor(
    private readonly writeBatch: WriteBatch<J, R>,
    private readonly maxBatch: number,
  ) {}

  submit(job: J): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.draining ??= this.scheduleDrain();
    });
  }

  /**
   * better-sqlite3 runs a whole transaction within microtasks, before the next datagram is read;
   * waiting for the check phase lets every datagram of this poll round join the batch. A job
   * submitted after the drain's last look at the queue but before it settled (a caller resumed by
   * the batch's commit) starts the next drain itself: it must not wait for another job to come.
   */
  private scheduleDrain(): Promise<void> {
    return new Promise<void>((ready) => setImmediate(ready))
      .then(() => this.drain())
      .finally(() => {
        this.draining = this.queue.length > 0 ? this.scheduleDrain() : undefined;
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
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

/** A string's lane among `n` (FNV-1a). */
function laneOf(key: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % n;
}

/**
 * `keyOf`: which jobs touch the same rows (PostgreSQL writes those in one lane, one after the other).
 * `maxBatch`: the most jobs in one transaction (MAX_BATCH unless smaller): every job of a batch
 * waits for the whole batch, and on SQLite nothing else runs while it is written.
 */
export function createBatchedWriter<J, R>(db: DB, writeBatch: WriteBatch<J, R>, keyOf: (job: J) => string = () => "", maxBatch = MAX_BATCH): SubmitWrite<J, R> {
  const size = Math.max(1, Math.min(maxBatch, MAX_BATCH));
  if (dialectOf(db) === "postgres") {
    const connections = poolStats(db)?.().max ?? 2;
    const lanes = Array.from({ length: Math.max(1, Math.floor(connections / 2)) }, () => new GroupCommit(writeBatch, size));
    return (job) => lanes[laneOf(keyOf(job), lanes.length)].submit(job);
  }
  const group = new GroupCommit(writeBatch, size);
  return (job) => group.submit(job);
}
