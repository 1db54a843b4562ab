/**
 * The store @fastify/rate-limit counts in (rate-limit.ts registers it). Every hit is counted in
 * this instance's memory, and also in the shared store when there is one (Redis, or PostgreSQL):
 * - shared store answers: the larger of the two counts, so the limit holds across instances, and
 *   also right after the shared store comes back (it missed the hits counted meanwhile);
 * - shared store fails, or does not answer in time: the memory count. A limit never switches off
 *   because its counter is out of reach; only the sharing across instances is lost meanwhile.
 * The memory keeps at most MAX_KEYS keys per limiter, the least recently used forgotten first, so
 * an address flood forgets its oldest addresses instead of growing without bound.
 */
import type { Count } from "./redis-counts.js";

/** Keys one limiter keeps at most in memory. */
export const MAX_KEYS = 100_000;

/** A store shared by instances: resolves the key's count after this hit, rejects when it cannot count. */
export interface SharedCounts {
  incr(key: string, windowMs: number): Promise<Count>;
}

type Callback = (err: Error | null, res?: Count) => void;

/** Fixed windows per key in memory: a window starts at the key's first hit and lasts `windowMs`. */
export class MemoryCounts {
  private readonly windows = new Map<string, { startMs: number; hits: number }>();

  constructor(private readonly maxKeys = MAX_KEYS) {}

  hit(key: string, windowMs: number, nowMs: number): Count {
    let w = this.windows.get(key);
    // Re-inserted on every hit: the Map's order is then least recently used first.
    if (w) this.windows.delete(key);
    if (!w || w.startMs + windowMs <= nowMs) w = { startMs: nowMs, hits: 0 };
    w.hits++;
    this.windows.set(key, w);
    if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    return { current: w.hits, ttl: w.startMs + windowMs - nowMs };
  }

  get size(): number {
    return this.windows.size;
  }
}

/** Reports a shared store's failures (rate-limit.ts logs them, at most every few seconds). */
export type OnSharedFailure = (err: Error) => void;

/** The plugin's store interface: `incr` with a callback, and a `child` per limiter (each its own memory). */
export class RateLimitCounts {
  private readonly memory = new MemoryCounts();

  constructor(
    private readonly shared?: SharedCounts,
    private readonly onFailure: OnSharedFailure = () => {},
  ) {}

  incr(key: string, cb: Callback, windowMs: number, _max: number): void {
    const local = this.memory.hit(key, windowMs, Date.now());
    if (!this.shared) {
      cb(null, local);
      return;
    }
    this.shared.incr(key, windowMs).then(
      (shared) => cb(null, shared.current >= local.current ? shared : local),
      (err: Error) => {
        this.onFailure(err);
        cb(null, local);
      },
    );
  }

  child(_routeOptions: unknown): RateLimitCounts {
    return new RateLimitCounts(this.shared, this.onFailure);
  }
}
