/**
 * Group commit for accounting on SQLite. SQLite has one writer and a commit costs far more than
 * the handful of statements a packet needs, so packets that arrive together (in one poll round of
 * the event loop, or while a transaction runs) are applied in one transaction: one commit a burst.
 * If a batch fails, its packets are retried one by one so only the faulty one goes unanswered.
 */
import { type AccountingDeps, type AccountingJob, recordAccountingBatch } from "./accounting.service.js";
import type { SessionCounters } from "./radius.repository.js";

/** Bounds how long one transaction holds the database (and how much one failure retries). */
const MAX_BATCH = 128;

interface Pending extends AccountingJob {
  resolve(delta: SessionCounters): void;
  reject(err: unknown): void;
}

export class AccountingBatcher {
  private queue: Pending[] = [];
  private draining: Promise<void> | undefined;

  constructor(private readonly deps: AccountingDeps) {}

  submit(job: AccountingJob): Promise<SessionCounters> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...job, resolve, reject });
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
        const deltas = await recordAccountingBatch(this.deps, batch);
        for (let i = 0; i < batch.length; i++) batch[i].resolve(deltas[i]);
      } catch (err) {
        if (batch.length === 1) {
          batch[0].reject(err);
          continue;
        }
        for (const p of batch) {
          try {
            const [delta] = await recordAccountingBatch(this.deps, [p]);
            p.resolve(delta);
          } catch (single) {
            p.reject(single);
          }
        }
      }
    }
  }
}
