/**
 * How background work (the outbox loops, webhook and message attempts, RADIUS housekeeping and
 * stale-session closing, the retention job, the message schedule) reports its failures: one line
 * per spell, never one per attempt. A job keeps retrying on its own schedule (each names its bound);
 * this only decides what reaches the log:
 * - the first failure of a spell is logged, once: a database that is busy or away (SQLite's write
 *   lock held by another process, PostgreSQL restarting) as one `warn` line with the error's code
 *   and message and no stack (it is the database's state, not a bug); anything else as one `error`
 *   line with its stack;
 * - further failures of the spell are counted, each as a `debug` line with the count so far (seen
 *   only at LOG_LEVEL=debug, where someone watching a spell wants to see the retries go on);
 * - the first success after a logged spell ends it with one `info` line saying how many attempts
 *   failed and for how long.
 * A new spell is logged at most once per REPEAT_MS per job, so a job that fails and succeeds in
 * turn does not flood the log either.
 */
import { isDatabaseUnavailable } from "./database-errors.js";

export interface BackgroundLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A new spell of one job is logged at most this often. */
const REPEAT_MS = 60_000;

export interface BackgroundFailures {
  /** An attempt of the job failed; `retry` says when it runs again, for the log line. */
  failed(err: unknown, retry: string): void;
  /** An attempt of the job succeeded (ends a spell). */
  succeeded(): void;
}

/** The failure reporter of the background job `job` (a few words: "webhook delivery"). */
export function backgroundFailures(log: BackgroundLog, job: string, now: () => number = Date.now): BackgroundFailures {
  let failures = 0;
  let since = 0;
  let logged = false;
  let lastLogged = Number.NEGATIVE_INFINITY;
  return {
    failed(err, retry) {
      if (failures++ === 0) since = now();
      if (logged || now() - lastLogged < REPEAT_MS) {
        log.debug({ job, failedAttempts: failures }, `${job}: failed again; ${retry}`);
        return;
      }
      logged = true;
      lastLogged = now();
      if (isDatabaseUnavailable(err)) {
        const { code, message } = err as { code?: unknown; message?: unknown };
        log.warn({ job, code, reason: String(message) }, `${job}: the database is busy or unavailable; ${retry} (further failures are not logged until it works again)`);
      } else {
        log.error({ job, err }, `${job} failed; ${retry} (further failures are not logged until it works again)`);
      }
    },
    succeeded() {
      if (failures === 0) return;
      if (logged) log.info({ job, failedAttempts: failures, failingMs: now() - since }, `${job} works again`);
      failures = 0;
      logged = false;
    },
  };
}
