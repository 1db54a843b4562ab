/** Dialect factory: `sqlite:<path>` (embedded default) or `postgres://...`. */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema.js";

export type DB = Kysely<Database>;

// int8 (COUNT, SUM, bigint columns) as JavaScript numbers: our counters stay below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DatabaseOptions {
  /** PostgreSQL only: schema to use (tests isolate themselves this way). */
  searchPath?: string;
  poolSize?: number;
}

interface CachedStatement {
  stmt: SQLite.Statement;
  /** Anything but a SELECT may write (INSERT ... RETURNING reads rows and writes). */
  writes: boolean;
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small indexed query.
 * Statements are cached by SQL text (queries are parameterised, so the set of texts is small);
 * Kysely's connection and the direct hot paths share the cache.
 */
function statementCache(sqlite: SQLite.Database, max = 500): (source: string) => CachedStatement {
  const cache = new Map<string, CachedStatement>();
  return (source) => {
    let entry = cache.get(source);
    if (!entry) {
      entry = { stmt: sqlite.prepare(source), writes: !/^\s*select\b/i.test(source) };
      if (cache.size >= max) cache.clear();
      cache.set(source, entry);
    }
    return entry;
  };
}

/**
 * The connection as Kysely sees it: `prepare` answers from the cache and counts a possible write in
 * `tracker.localWrites` (Kysely prepares a statement right before each run), which read caches use.
 */
function kyselyConnection(sqlite: SQLite.Database, cached: (source: string) => CachedStatement, tracker: { localWrites: number }): SQLite.Database {
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === "prepare") {
        return (source: string) => {
          const { stmt, writes } = cached(source);
          if (writes) tracker.localWrites++;
          return stmt;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const generations = new WeakMap<object, () => string>();
/** How stale another connection's commit may look to changeGeneration. */
export const OTHER_CONNECTION_POLL_MS = 50;

/**
 * SQLite only: the connection itself, for the hot paths (prepared-query.ts) that run their own prepared
 * statements instead of building a query per call. Their writes must call noteWrite() so read
 * caches see them. Statements may run directly while the caller holds the connection (inside its
 * own transaction), or when no transaction is open on it (`inTransaction` false); otherwise they
 * must wait their turn through Kysely.
 */
export interface SqliteDirect {
  /** A prepared statement, cached by SQL text. */
  prepare(source: string): SQLite.Statement;
  noteWrite(): void;
  readonly inTransaction: boolean;
}

/** Keyed by the adapter: a database and its transactions share it. */
const directs = new WeakMap<object, SqliteDirect>();

export function sqliteDirect(db: DB): SqliteDirect | undefined {
  return directs.get(db.getExecutor().adapter);
}

/**
 * A token that changes whenever the database may have changed: at once for this process's writes, and
 * within OTHER_CONNECTION_POLL_MS for a commit by another connection (SQLite's data_version, such as
 * `guestwifi account create` run beside the server). Undefined on PostgreSQL, where other instances
 * write unseen, so nothing may be cached there.
 */
export function changeGeneration(db: DB): string | undefined {
  return generations.get(db)?.();
}

export function createDatabase(url: string, opts: DatabaseOptions = {}): DB {
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length) || ":memory:";
    if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("foreign_keys = ON");
    const tracker = { localWrites: 0 };
    const dataVersion = sqlite.prepare("pragma data_version").pluck();
    const cached = statementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: kyselyConnection(sqlite, cached, tracker) }) });
    // Asking SQLite for data_version on every hot read cost as much as the rest of a cached look-up.
    let version = 0;
    let versionAt = Number.NEGATIVE_INFINITY;
    generations.set(db, () => {
      const now = Date.now();
      if (now - versionAt >= OTHER_CONNECTION_POLL_MS) {
        version = dataVersion.get() as number;
        versionAt = now;
      }
      return `${tracker.localWrites}:${version}`;
    });
    directs.set(db.getExecutor().adapter, {
      prepare: (source) => cached(source).stmt,
      noteWrite() {
        tracker.localWrites++;
      },
      get inTransaction() {
        return sqlite.inTransaction;
      },
    });
    return db;
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolSize ?? 10,
    options: opts.searchPath ? `-c search_path=${opts.searchPath}` : undefined,
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
