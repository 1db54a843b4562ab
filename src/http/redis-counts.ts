/**
 * Rate-limit counts in Redis (REDIS_URL), shared by every instance using it, with a Redis that
 * misbehaves kept out of the request path:
 * - The service never waits for Redis to start: it connects in the background, and until the
 *   connection is ready (a socket that accepts and never answers never is) counts stay in memory.
 * - Every count is given `timeoutMs`: one that does not answer in time (a stopped or overloaded
 *   Redis keeps the connection open and answers nothing) marks Redis degraded, and while it is
 *   degraded no request asks it at all. A PING every PROBE_MS, bounded the same way, brings it
 *   back; a PING that fails opens a fresh connection, dropping the commands stuck on the old one.
 * - The state is what /healthz and the metrics report, and it is logged once per change.
 * Callers (rate-limit-counts.ts) count in memory too, and fall back on it whenever this rejects.
 */
import { Redis } from "ioredis";

export interface Count {
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

export interface RedisHealth {
  status: "ok" | "degraded";
  /** Why it is degraded, in words for a person. */
  reason?: string;
  /** When it became degraded (ms since the epoch). */
  sinceMs?: number;
}

interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** How often a degraded Redis is asked whether it answers again. */
const PROBE_MS = 1_000;
/** A Redis that has not become ready this long after start is logged as degraded (it may be silent, not refusing). */
const START_WARN_MS = 5_000;

/** INCR, and the window's expiry set by the hit that opens it; answers the count and the ms left. */
const HIT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {current, tonumber(ARGV[1])}
end
return {current, redis.call('PTTL', KEYS[1])}
`;

type HitCommand = (key: string, windowMs: number) => Promise<[number, number]>;

class RedisTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
  }
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeout(ms)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export class RedisCounts {
  private readonly redis: Redis;
  private readonly hit: HitCommand;
  private state: RedisHealth = { status: "degraded", reason: "not connected yet", sinceMs: Date.now() };
  /** Whether the current degraded spell has been logged (once per spell). */
  private warned = false;
  private closing = false;
  private probing = false;
  private readonly probeTimer: NodeJS.Timeout;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly timeoutMs: number,
    private readonly log: Log,
  ) {
    // No offline queue and no retries: a command while disconnected fails at once. The command
    // timeout drops commands stuck on a silent connection from ioredis's queue as well.
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: Math.max(1_000, timeoutMs),
      commandTimeout: timeoutMs,
      lazyConnect: true,
    });
    this.redis.defineCommand("guestwifiHit", { numberOfKeys: 1, lua: HIT });
    this.hit = (key, windowMs) => (this.redis as unknown as { guestwifiHit: HitCommand }).guestwifiHit(key, windowMs);
    this.redis.on("ready", () => this.healthy());
    this.redis.on("error", (err: Error) => this.degraded(err.message));
    this.redis.on("close", () => this.closing || this.degraded("the connection closed"));
    this.redis.connect().catch(() => {
      // Reported by the error event; ioredis keeps trying to connect.
    });
    this.probeTimer = setInterval(() => this.probe(), PROBE_MS);
    this.probeTimer.unref();
  }

  health(): RedisHealth {
    return { ...this.state };
  }

  /** Counts one hit of `key` in a window of `windowMs`; rejects at once while Redis is degraded. */
  async incr(key: string, windowMs: number): Promise<Count> {
    if (this.state.status !== "ok" || this.redis.status !== "ready") throw new Error(`Redis is degraded: ${this.state.reason ?? this.redis.status}`);
    try {
      const [current, ttl] = await within(this.hit(`${this.prefix}${key}`, windowMs), this.timeoutMs);
      return { current: Number(current), ttl: Math.max(0, Number(ttl)) };
    } catch (err) {
      this.degraded((err as Error).message);
      throw err;
    }
  }

  close(): void {
    this.closing = true;
    clearInterval(this.probeTimer);
    this.redis.disconnect();
  }

  private healthy(): void {
    if (this.state.status === "ok") return;
    const was = this.state;
    this.state = { status: "ok" };
    if (!this.warned) return;
    this.warned = false;
    this.log.info({ degradedMs: was.sinceMs !== undefined ? Date.now() - was.sinceMs : undefined }, "redis answers: rate limits are shared through it again");
  }

  private degraded(reason: string): void {
    if (this.state.status === "ok") this.state = { status: "degraded", reason, sinceMs: Date.now() };
    else if (this.warned) return;
    else this.state.reason = reason;
    this.warn();
  }

  private warn(): void {
    this.warned = true;
    this.log.warn({ reason: this.state.reason }, "redis degraded: rate limits count in this instance's memory until it answers again");
  }

  /**
   * While degraded on a ready connection: a PING, bounded; its answer makes Redis healthy again.
   * A connection that never became ready (a silent socket at start) is logged once after START_WARN_MS.
   */
  private probe(): void {
    if (this.state.status === "ok" || this.probing) return;
    if (this.redis.status !== "ready") {
      if (!this.warned && Date.now() - (this.state.sinceMs ?? 0) >= START_WARN_MS) {
        this.state.reason = `no answer since ${new Date(this.state.sinceMs ?? 0).toISOString()} (connection ${this.redis.status})`;
        this.warn();
      }
      return;
    }
    this.probing = true;
    within(this.redis.ping(), this.timeoutMs)
      .then(
        () => this.healthy(),
        () => {
          // Whatever waits on this connection waits for nothing: start again on a fresh one.
          this.redis.disconnect(true);
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }
}
