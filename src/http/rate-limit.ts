/**
 * Rate limits through @fastify/rate-limit, registered once per app (buildApp) and used by every
 * limiter of the app: the API's (API_RATE_LIMIT_PER_MINUTE), the portal's (logins, texts, voucher
 * tries) and the console's sign-in. Each limiter counts hits per key in a window of one minute.
 * Every hit is counted in this app's memory (rate-limit-counts.ts); on PostgreSQL it is counted in
 * the database too (src/db/rate-limit-store.ts), with REDIS_URL in Redis instead (redis-counts.ts),
 * so that several instances count together. While that shared store is out of reach, or does not
 * answer in time, the limits go on from the memory counts: they fail closed, only the sharing
 * across instances is lost. Every limiter names its keys, so they never share a counter.
 *
 * The API's limit: before the caller is looked up, a call counts against its caller when the
 * identifier was resolved lately (the caller cache answers without the database), otherwise
 * against the client address. So unknown identifiers are limited too, and once an address is over
 * the limit its calls stop costing database look-ups. A call whose caller had to be looked up
 * counts against that caller as well, once resolved, so every caller gets exactly the limit.
 */
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { DB } from "../db/database.js";
import { dialectOf } from "../db/dialect.js";
import { PostgresRateLimitStore } from "../db/rate-limit-store.js";
import { httpErrors } from "../errors.js";
import { type Caller, type CallerResolver, identifierOf } from "./caller.js";
import { RateLimitCounts, type SharedCounts } from "./rate-limit-counts.js";
import { RedisCounts, type RedisHealth } from "./redis-counts.js";

const WINDOW_MS = 60_000;

export interface RateLimitStorage {
  /** The app's database: on PostgreSQL the counts go there too. */
  db?: DB;
  /** REDIS_URL: the counts go to Redis instead, under `redisPrefix`. */
  redisUrl?: string;
  redisPrefix?: string;
  /** How long a count may wait for Redis (REDIS_TIMEOUT_MS). */
  redisTimeoutMs?: number;
}

/** What the app's rate limits depend on, for /healthz and the metrics. */
export interface RateLimitHealth {
  /** Redis's state, or undefined without REDIS_URL. */
  redis(): RedisHealth | undefined;
}

/** Failures of the shared store are logged at most this often (a store that is down makes one per request). */
const SHARED_ERROR_LOG_MS = 10_000;

/** The PostgreSQL store as a promise; its statements are bounded by the database's own timeouts. */
function postgresCounts(db: DB): SharedCounts {
  const store = new PostgresRateLimitStore(db);
  return {
    incr: (key, windowMs) => new Promise((resolve, reject) => store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, 0)),
  };
}

/** Makes app.createRateLimit available to this app and its plugins; limits nothing by itself. */
export async function registerRateLimits(
  app: FastifyInstance,
  { db, redisUrl, redisPrefix = "guestwifi:", redisTimeoutMs = 500 }: RateLimitStorage = {},
): Promise<RateLimitHealth> {
  let shared: SharedCounts | undefined;
  let redis: RedisCounts | undefined;
  let onFailure = (_err: Error) => {};
  if (redisUrl) {
    // Redis logs its own changes of state (degraded, back); a failed count is one of them.
    redis = new RedisCounts(redisUrl, `${redisPrefix}rate-limit:`, redisTimeoutMs, app.log);
    const counts = redis;
    app.addHook("onClose", async () => counts.close());
    shared = counts;
  } else if (db && dialectOf(db) === "postgres") {
    shared = postgresCounts(db);
    let lastLogged = 0;
    onFailure = (err) => {
      if (Date.now() - lastLogged < SHARED_ERROR_LOG_MS) return;
      lastLogged = Date.now();
      app.log.warn({ err: err.message }, "rate-limit counts unavailable in the database: counted in this instance's memory meanwhile");
    };
  }
  // The plugin makes its store with `new`: a class that already holds the shared store.
  const store = class extends RateLimitCounts {
    constructor() {
      super(shared, onFailure);
    }
  };
  await app.register(rateLimit, { global: false, store });
  return { redis: () => redis?.health() };
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
