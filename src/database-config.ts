/**
 * The database's settings (where it is, how long to wait for it, its pools, the key that seals
 * secrets in it, the retention job), read by config.ts with its readers so that every variable
 * fails with the same kind of message.
 */
import { isAbsolute, resolve } from "node:path";
import type { ConfigReaders } from "./config-readers.js";
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from "./database-timeouts.js";
import { PROJECT_ROOT } from "./project-root.js";

export interface DatabaseConfig {
  databaseUrl: string;
  /** Bounds on every wait for the database (a stopped or silent database gives 503s, not hung requests). */
  databaseTimeouts: DatabaseTimeouts;
  /** DB_POOL_SIZE: PostgreSQL connections of HTTP, the portal and the background jobs. */
  databasePoolSize: number;
  /**
   * DB_JOBS_POOL_SIZE: PostgreSQL connections of the background jobs (webhook deliveries, messages,
   * retention) alone, so that their claims and commits never wait behind a burst of HTTP requests,
   * nor the burst behind them; 0: they share DB_POOL_SIZE's.
   */
  databaseJobsPoolSize: number;
  /**
   * SECRET_BOX_KEY: the AES-256 key (32 bytes, base64 or hex) that seals controller credentials at
   * rest. Unset: one is generated once and kept in the database's service_secrets table.
   */
  secretBoxKey: Buffer | undefined;
  /** How often the retention job looks for guests to erase (RETENTION_INTERVAL_MS; 0: never, in this instance). */
  retentionIntervalMs: number;
}

/**
 * A relative SQLite path names a file in the installation's directory (where package.json is), not
 * in the current directory: the service and every `guestwifi` command find the same database from
 * wherever they are run (the default is <install>/data/guestwifi.db).
 */
function sqliteRelativeToInstall(url: string): string {
  if (!url.startsWith("sqlite:")) return url;
  const file = url.slice("sqlite:".length);
  if (file === "" || file === ":memory:" || isAbsolute(file)) return url;
  return `sqlite:${resolve(PROJECT_ROOT, file)}`;
}

/** A 32-byte key written as 64 hex digits or as base64 (url-safe or not). */
function key32(read: ConfigReaders, name: string): Buffer | undefined {
  const raw = read.optional(name)?.trim();
  if (raw === undefined) return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64")
      : undefined;
  if (key?.length !== 32) read.fail(`${name} must be 32 bytes written as 64 hex digits or as base64`);
  return key;
}

export function databaseConfig(read: ConfigReaders): DatabaseConfig {
  const databaseUrl = sqliteRelativeToInstall(read.str("DATABASE_URL", "sqlite:./data/guestwifi.db"));
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    read.fail(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  return {
    databaseUrl,
    databaseTimeouts: {
      acquireMs: read.int("DB_ACQUIRE_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.acquireMs, 100, 600_000),
      connectMs: read.int("DB_CONNECT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.connectMs, 100, 600_000),
      statementMs: read.int("DB_STATEMENT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.statementMs, 100, 3_600_000),
    },
    databasePoolSize: read.int("DB_POOL_SIZE", 10, 1, 1000),
    databaseJobsPoolSize: read.int("DB_JOBS_POOL_SIZE", 2, 0, 1000),
    secretBoxKey: key32(read, "SECRET_BOX_KEY"),
    retentionIntervalMs: read.int("RETENTION_INTERVAL_MS", 3_600_000, 0, 7 * 24 * 3_600_000),
  };
}
