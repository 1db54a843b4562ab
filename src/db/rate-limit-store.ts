/**
 * A store for @fastify/rate-limit that keeps its counters in PostgreSQL (table rate_limit_hits), so
 * that several instances on one database count every client together: a limit of 10 a minute is 10
 * across all of them, not 10 on each. As in the plugin's own memory store, a key's window starts at
 * its first hit and lasts the time window; a hit after it has ended starts a new one. One upsert per
 * counted request; rows of windows that have ended are deleted now and then by whichever instance
 * counts.
 */
import { sql } from "kysely";
import type { DB } from "./database.js";
import { NAMED_STATEMENT } from "./postgres-pool.js";

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** Ended windows are swept at most this often per instance. */
const SWEEP_EVERY_MS = 60_000;

export class PostgresRateLimitStore {
  private lastSweep = 0;

  constructor(
    private readonly db: DB,
    private readonly prefix = "",
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, _max: number): void {
    const now = Date.now();
    // One text for every hit (a named prepared statement: parsed once per connection), values bound.
    sql<{ hits: number; window_start: number }>`${sql.raw(NAMED_STATEMENT)}insert into rate_limit_hits (key, window_start, hits)
      values (${`${this.prefix}${key}`.slice(0, 255)}, ${now}::bigint, 1)
      on conflict (key) do update set
        hits = case when rate_limit_hits.window_start + ${timeWindow}::bigint <= ${now}::bigint then 1 else rate_limit_hits.hits + 1 end,
        window_start = case when rate_limit_hits.window_start + ${timeWindow}::bigint <= ${now}::bigint then ${now}::bigint else rate_limit_hits.window_start end
      returning hits, window_start`
      .execute(this.db)
      .then((r) => {
        const row = r.rows[0];
        if (!row) throw new Error("the rate-limit upsert returned no row");
        return row;
      })
      .then(
        (row) => {
          cb(null, { current: Number(row.hits), ttl: Math.max(0, Number(row.window_start) + timeWindow - now) });
          if (now - this.lastSweep > SWEEP_EVERY_MS) this.sweep(now, timeWindow);
        },
        (err: Error) => cb(err),
      );
  }

  private sweep(now: number, timeWindow: number): void {
    this.lastSweep = now;
    this.db
      .deleteFrom("rate_limit_hits")
      .where("window_start", "<", now - timeWindow)
      .execute()
      .catch(() => {
        // A failed sweep is retried at the next one; the counts stay right meanwhile.
      });
  }

  /** Every limiter made by createRateLimit gets a child; the limiter's name is in its keys already. */
  child(_routeOptions: unknown): PostgresRateLimitStore {
    return new PostgresRateLimitStore(this.db, this.prefix);
  }
}
