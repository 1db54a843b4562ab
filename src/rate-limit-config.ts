/**
 * The rate limits' settings (the API's, the portal's, and the Redis their counters may live in),
 * read by config.ts with its readers so that every variable fails with the same kind of message.
 */
import type { ConfigReaders } from "./config-readers.js";

export interface RateLimitConfig {
  apiRateLimitPerMinute: number;
  /** Rate-limit counters in Redis (shared by every instance using it) instead of memory or PostgreSQL. */
  redisUrl: string | undefined;
  /** Prefix of every key this service writes in Redis, so several deployments can share one Redis. */
  redisPrefix: string;
  /** How long one rate-limit count may wait for Redis before the limit goes on from memory and Redis counts as degraded. */
  redisTimeoutMs: number;
  /** Portal login requests per client address (IPv4, or IPv6 /64) per minute; 0 = off. */
  portalLoginRateLimitPerMinute: number;
  /** Texts per client address, and per location, per minute. */
  portalSmsRateLimitPerMinute: number;
  /** Voucher codes tried per client address per minute (guessing is pointless at this rate); 0 turns it off. */
  portalVoucherTriesPerMinute: number;
}

export function rateLimitConfig(read: ConfigReaders): RateLimitConfig {
  const redisUrl = read.optional("REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    read.fail(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const redisPrefix = read.str("REDIS_PREFIX", "guestwifi:");
  if (!/^[\w:.-]{1,64}$/.test(redisPrefix)) read.fail("REDIS_PREFIX must be 1 to 64 letters, digits, _ : . or -");
  return {
    apiRateLimitPerMinute: read.int("API_RATE_LIMIT_PER_MINUTE", 0, 0, 10_000_000),
    redisUrl,
    redisPrefix,
    redisTimeoutMs: read.int("REDIS_TIMEOUT_MS", 500, 10, 60_000),
    portalLoginRateLimitPerMinute: read.int("PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE", 600, 0, 1_000_000),
    portalSmsRateLimitPerMinute: read.int("PORTAL_SMS_RATE_LIMIT_PER_MINUTE", 10, 1, 1_000_000),
    portalVoucherTriesPerMinute: read.int("PORTAL_VOUCHER_TRIES_PER_MINUTE", 10, 0, 1_000_000),
  };
}
