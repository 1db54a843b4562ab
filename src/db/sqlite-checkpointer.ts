/**
 * SQLite's checkpoints, off the event loop. In WAL mode a commit appends pages to the log, and
 * SQLite copies the log back into the database file (a checkpoint, with two fsyncs) on whichever
 * connection commits once the log passes 1,000 pages: the event loop stopped for it. Measured on
 * the 2-core development machine (ext4, an fsync about 0.3 ms): a commit cost 444 µs on average
 * with checkpoints on the committing connection, 132 µs without; the portal's custom-form logins
 * went from 267 to 358 per second on SQLite.
 *
 * A database that has written a little (CHECKPOINTER_AFTER_WRITES statements) starts a worker
 * thread with a connection of its own, which runs a PASSIVE checkpoint (it never waits for the
 * writer, nor makes it wait) every CHECKPOINT_INTERVAL_MS when something was committed. The log
 * restarts from its beginning when a transaction begins with every page copied; under a
 * continuous stream of commits that moment may not come, so when the log has grown past
 * CATCH_UP_PAGES the worker asks the event loop to checkpoint once itself, between two
 * transactions: as the only writer it copies the few pages left and the log restarts. The
 * connection's own automatic checkpoint stays as a safety net, at AUTOCHECKPOINT_WITH_WORKER pages.
 * If the worker fails, SQLite's default comes back.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";
import type { CheckpointCounts } from "../metrics.js";

/** Writing statements after which a file database starts its checkpointer (short-lived tools never do). */
export const CHECKPOINTER_AFTER_WRITES = 200;
const CHECKPOINT_INTERVAL_MS = 100;
/** Pages in the log after which the event loop checkpoints once (about 16 MB at 4 KiB pages). */
const CATCH_UP_PAGES = 4_000;
/** The writer's own automatic checkpoint while the worker runs (SQLite's default is 1,000). */
const AUTOCHECKPOINT_WITH_WORKER = 10_000;
/** The log is cut back to this size when it restarts (bytes). */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** What the worker runs: CommonJS, eval'd (no file to find from source or from the bundle). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
const version = db.prepare("pragma data_version").pluck();
const checkpoint = db.prepare("pragma wal_checkpoint(PASSIVE)");
let seen = version.get();
const timer = setInterval(() => {
  const now = version.get();
  if (now === seen) return;
  seen = now;
  parentPort.postMessage(checkpoint.get().log);
}, workerData.intervalMs);
parentPort.on("message", (m) => {
  if (m !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  readonly stats: CheckpointCounts;
  stop(): void;
}

/**
 * Starts checkpointing `sqlite` (a file database in WAL mode) from a worker thread. `warn` hears
 * a worker that failed (SQLite's own checkpoints are back on then).
 */
export function startCheckpointer(sqlite: SQLite.Database, warn: (msg: string) => void): Checkpointer {
  const stats: CheckpointCounts = { worker: 0, catchUp: 0 };
  const module = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, file: sqlite.name, intervalMs: CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_WITH_WORKER}`);
  let stopped = false;
  // `log`: the pages in the log after a checkpoint that copied what it could.
  worker.on("message", (log: number) => {
    stats.worker++;
    // The log did not restart: catch up once, between transactions.
    if (log >= CATCH_UP_PAGES && !stopped && sqlite.open && !sqlite.inTransaction) {
      sqlite.pragma("wal_checkpoint(PASSIVE)");
      stats.catchUp++;
    }
  });
  worker.on("error", (err) => {
    warn(`the SQLite checkpointer stopped (${err.message}); checkpoints are back on the event loop`);
    if (sqlite.open) sqlite.pragma("wal_autocheckpoint = 1000");
  });
  return {
    stats,
    /** Before the connection closes. */
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage("stop");
    },
  };
}
