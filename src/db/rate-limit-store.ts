/**
 * A store for @fastify/rate-limit that keeps its counters in PostgreSQL (table rate_limit_hits), so
 * that several instances on one database count every client together: a limit of 10 a minute is 10
 * across all of them, not 10 on each. As in the plugin's own memory store, a key's window starts at
 * its first hit and lasts the time window; a hit after it has ended starts a new one. One upsert per
 * counted request, or per batch of the requests of one key that arrived while its last upsert was
 * in flight; rows of windows that have ended are deleted now and then by whichever instance counts.
 */
import { sql } from "kysely";
import type { DB } from "./database.js";
import { NAMED_STATEMENT } from "./postgres-pool.js";
import { PreparedQuery } from "./prepared-query.js";

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** Ended windows are swept at most this often per instance. */
const SWEEP_EVERY_MS = 60_000;

/** One text for every hit (a named prepared statement: parsed once per connection), built once, values bound. */
const UPSERT = new PreparedQuery(["key", "now", "n", "timeWindow"], (db, p) => ({
  compile: () =>
    sql`${sql.raw(NAMED_STATEMENT)}insert into rate_limit_hits (key, window_start, hits)
      values (${p.key}, ${p.now}::bigint, ${p.n}::integer)
      on conflict (key) do update set
        hits = case when rate_limit_hits.window_start + ${p.timeWindow}::bigint <= ${p.now}::bigint then ${p.n}::integer else rate_limit_hits.hits + ${p.n}::integer end,
        window_start = case when rate_limit_hits.window_start + ${p.timeWindow}::bigint <= ${p.now}::bigint then ${p.now}::bigint else rate_limit_hits.window_start end
      returning hits, window_start`.compile(db),
}));

/** Hits of one key waiting for the statement of that key in flight to return. */
interface Waiting {
  callbacks: Callback[];
  timeWindow: number;
}

export class PostgresRateLimitStore {
  private lastSweep = 0;
  /**
   * Keys with a statement in flight, and the hits that arrived for them meanwhile. Those go to the
   * database together, as one upsert adding their number, when the statement in flight returns:
   * many clients behind one address (a venue's NAT, a carrier's) then cost one round trip and one
   * row lock per round trip's worth of requests, not one each, queued on the row. Every hit is
   * still counted once, and each gets its own count, as if they had come one after another.
   */
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly db: DB,
    private readonly prefix = "",
    /** The clock windows are measured by (tests pass their own to end a window without waiting). */
    private readonly now: () => number = Date.now,
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, _max: number): void {
    const k = `${this.prefix}${key}`.slice(0, 255);
    const queued = this.waiting.get(k);
    if (queued) {
      queued.callbacks.push(cb);
      return;
    }
    this.waiting.set(k, { callbacks: [], timeWindow });
    this.count(k, [cb], timeWindow);
  }

  /** Adds `callbacks.length` hits to `k`'s window; each callback gets its own count. */
  private count(k: string, callbacks: Callback[], timeWindow: number): void {
    const now = this.now();
    const n = callbacks.length;
    UPSERT.first<{ hits: number; window_start: number }>(this.db, { key: k, now, n, timeWindow })
      .then((row) => {
        if (!row) throw new Error("the rate-limit upsert returned no row");
        return row;
      })
      .then(
        (row) => {
          this.next(k);
          const hits = Number(row.hits);
          const ttl = Math.max(0, Number(row.window_start) + timeWindow - now);
          for (let i = 0; i < n; i++) callbacks[i](null, { current: hits - n + i + 1, ttl });
          if (now - this.lastSweep > SWEEP_EVERY_MS) this.sweep(now, timeWindow);
        },
        (err: Error) => {
          this.next(k);
          for (const cb of callbacks) cb(err);
        },
      );
  }

  /** The statement of `k` returned: the hits that waited for it go next, or the key is idle again. */
  private next(k: string): void {
    const queued = this.waiting.get(k);
    if (!queued || queued.callbacks.length === 0) {
      this.waiting.delete(k);
      return;
    }
    this.waiting.set(k, { callbacks: [], timeWindow: queued.timeWindow });
    this.count(k, queued.callbacks, queued.timeWindow);
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
    return new PostgresRateLimitStore(this.db, this.prefix, this.now);
  }
}
