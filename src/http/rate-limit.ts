/**
 * Rate limits through @fastify/rate-limit, registered once per app (buildApp) and used by every
 * limiter of the app: the API's (API_RATE_LIMIT_PER_MINUTE) and the portal's (logins and texts).
 * Each limiter counts hits per key in a window of one minute. On SQLite (one instance per file) the
 * counts are in this app's memory (at most MAX_KEYS keys, the least recently used forgotten first);
 * on PostgreSQL they are in the database (src/db/rate-limit-store.ts), so that several instances
 * on one database count together; with REDIS_URL they are in Redis, wherever the database is.
 * Every limiter names its keys, so they never share a counter.
 *
 * The API's limit: before the caller is looked up, a call counts against its caller when the
 * identifier was resolved lately (the caller cache answers without the database), otherwise
 * against the client address. So unknown identifiers are limited too, and once an address is over
 * the limit its calls stop costing database look-ups. A call whose caller had to be looked up
 * counts against that caller as well, once resolved, so every caller gets exactly the limit.
 */
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import { Redis } from "ioredis";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { DB } from "../db/database.js";
import { dialectOf } from "../db/dialect.js";
import { PostgresRateLimitStore } from "../db/rate-limit-store.js";
import { httpErrors } from "../errors.js";
import { type Caller, type CallerResolver, identifierOf } from "./caller.js";

const WINDOW_MS = 60_000;
/** Keys one limiter keeps at most: an address flood forgets its oldest addresses, never grows without bound. */
const MAX_KEYS = 100_000;

export interface RateLimitStorage {
  /** The app's database: on PostgreSQL the counts go there. */
  db?: DB;
  /** REDIS_URL: the counts go to Redis instead, under `redisPrefix`. */
  redisUrl?: string;
  redisPrefix?: string;
}

/** Redis errors are logged at most this often (a Redis that is down makes one per request). */
const REDIS_ERROR_LOG_MS = 10_000;

/** Makes app.createRateLimit available to this app and its plugins; limits nothing by itself. */
export async function registerRateLimits(app: FastifyInstance, { db, redisUrl, redisPrefix = "guestwifi:" }: RateLimitStorage = {}): Promise<void> {
  if (redisUrl) {
    // Commands fail at once while Redis is unreachable (no queue): the request is then not limited
    // (skipOnError), logged, rather than held up or refused because a counter is out of reach.
    const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 5000, lazyConnect: true });
    let lastLogged = 0;
    redis.on("error", (err: Error) => {
      if (Date.now() - lastLogged < REDIS_ERROR_LOG_MS) return;
      lastLogged = Date.now();
      app.log.warn({ err: err.message }, "redis unavailable: rate limits are not counted until it is back");
    });
    await redis.connect().catch((err: Error) => app.log.warn({ err: err.message }, "redis unavailable at start: rate limits are not counted until it is back"));
    app.addHook("onClose", async () => {
      redis.disconnect();
    });
    await app.register(rateLimit, { global: false, redis, nameSpace: `${redisPrefix}rate-limit:`, skipOnError: true });
  } else if (db && dialectOf(db) === "postgres") {
    const shared = db;
    // The plugin makes its store with `new`: a class that already holds the database.
    const store = class extends PostgresRateLimitStore {
      constructor() {
        super(shared);
      }
    };
    await app.register(rateLimit, { global: false, store });
  } else {
    await app.register(rateLimit, { global: false, cache: MAX_KEYS });
  }
}

/**
 * Counts one hit of `key` in its window: the seconds until the window ends when the key is over
 * the limit, undefined when it is not.
 */
export type MinuteLimit = (request: FastifyRequest, key: string) => Promise<number | undefined>;

/**
 * A limiter of `perMinute` hits per key and minute, with its own counters (`name` is part of every
 * key it counts, so two limiters never share one in a shared store); 0 (or less) is no limit.
 */
export function minuteLimit(app: FastifyInstance, name: string, perMinute: number): MinuteLimit {
  if (perMinute <= 0) return async () => undefined;
  const keys = new WeakMap<FastifyRequest, string>();
  const limiter = app.createRateLimit({ max: perMinute, timeWindow: WINDOW_MS, keyGenerator: (req) => keys.get(req) ?? clientAddressKey(req.ip) });
  return async (request, key) => {
    // The key generator runs at once, before the limiter's first await: the key set here is the one counted.
    keys.set(request, `${name}:${key}`);
    const r = await limiter(request);
    return !r.isAllowed && r.isExceeded ? Math.max(1, r.ttlInSeconds) : undefined;
  };
}

/**
 * The address a limit counts a client by: IPv4 (also written IPv4-mapped in IPv6) as is, IPv6 by
 * its /64, the smallest network a subscriber is given: a host picks any of 2^64 addresses inside
 * it at will, so counting single IPv6 addresses would count nothing.
 */
export function clientAddressKey(ip: string): string {
  return normalizeIP(ip, 64);
}

export interface ApiRateLimit {
  /** Counts the call before the caller is looked up; throws the 429 when over the limit. */
  beforeLookup(request: FastifyRequest): Promise<void>;
  /** Counts the call against its caller, unless beforeLookup already did. */
  afterLookup(request: FastifyRequest, caller: Caller): Promise<void>;
}

function callerKey(caller: Caller): string {
  return caller.subUserId !== null ? `s${caller.subUserId}` : `a${caller.accountId}`;
}

/** This app's API limiter, or undefined when the limit is off. */
export function apiRateLimit(app: FastifyInstance, perMinute: number, callers: CallerResolver): ApiRateLimit | undefined {
  if (perMinute <= 0) return undefined;
  const limit = minuteLimit(app, "api", perMinute);
  const counted = new WeakSet<FastifyRequest>();
  const take = async (request: FastifyRequest, key: string) => {
    const wait = await limit(request, key);
    if (wait !== undefined) throw httpErrors.rateLimited(wait);
  };

  return {
    async beforeLookup(request) {
      const caller = callers.cached(identifierOf(request));
      if (caller) counted.add(request);
      await take(request, caller ? callerKey(caller) : `ip:${clientAddressKey(request.ip)}`);
    },
    async afterLookup(request, caller) {
      if (!counted.has(request)) await take(request, callerKey(caller));
    },
  };
}
