/** Dialect factory: `sqlite:<path>` (embedded default) or `postgres://...`. */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresAdapter, PostgresDialect } from "kysely";
import type pg from "pg";
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from "../database-timeouts.js";
import { type DatabaseLog, changeWatchOf, createPostgresPool } from "./postgres-pool.js";
import type { Database } from "./schema.js";
import type { CheckpointCounts } from "../metrics.js";
import { type SqliteDirect, SqliteConnectionState, StatefulSqliteAdapter } from "./sqlite-connection.js";
import { StatefulSqliteDialect } from "./sqlite-connection.js";

export type DB = Kysely<Database>;
export type { DatabaseLog, SqliteDirect };
export { OTHER_CONNECTION_POLL_MS } from "./sqlite-connection.js";

export interface DatabaseOptions {
  /** PostgreSQL only: schema to use (tests isolate themselves this way). */
  searchPath?: string;
  poolSize?: number;
  timeouts?: Partial<DatabaseTimeouts>;
  /** Connection faults that no request is waiting for (PostgreSQL dropping an idle connection). */
  log?: DatabaseLog;
}

/** Without a logger (command-line tools), lost connections are reported on stderr. */
const STDERR_LOG: DatabaseLog = {
  warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
};

function sqliteState(db: DB): SqliteConnectionState | undefined {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof StatefulSqliteAdapter ? adapter.state : undefined;
}

/**
 * SQLite only: the checkpoints run so far off the event loop and on it (sqlite-checkpointer.ts), or
 * zeros while the checkpointer has not started; undefined on PostgreSQL.
 */
export function sqliteCheckpoints(db: DB): (() => CheckpointCounts) | undefined {
  const state = sqliteState(db);
  return state && (() => state.checkpoints ?? { worker: 0, catchUp: 0 });
}

/** SQLite only: the connection for the hot paths (see SqliteDirect); a database and its transactions share it. */
export function sqliteDirect(db: DB): SqliteDirect | undefined {
  return sqliteState(db);
}

/**
 * A token that changes whenever the database may have changed: at once for this process's writes, and
 * within OTHER_CONNECTION_POLL_MS for a commit by another connection (SQLite's data_version, such as
 * `guestwifi account create` run beside the server). Inside a transaction: undefined, nothing is
 * cached there. `catalogueOnly`: the caller holds rows of the catalogue tables only (catalogue.ts),
 * so only writes to those change the token (on SQLite this process's, and any commit of another
 * connection). On PostgreSQL, where other instances write too, the token is undefined unless
 * `catalogueOnly`, whose every write is announced to every instance (see change-watch.ts).
 */
export function changeGeneration(db: DB, catalogueOnly = false): string | undefined {
  if (db.isTransaction) return undefined;
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof StatefulSqliteAdapter) return adapter.state.generation(catalogueOnly);
  // PostgreSQL: only rows of the catalogue tables, whose writes are announced (change-watch.ts).
  if (catalogueOnly && adapter instanceof PooledPostgresAdapter) return changeWatchOf(adapter.pool)?.generation();
  return undefined;
}

/** PostgreSQL: the backend pid of the connection that listens for catalogue changes, while it does. */
export function catalogueListenerPid(db: DB): number | undefined {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof PooledPostgresAdapter ? changeWatchOf(adapter.pool)?.listenerPid : undefined;
}

/** The PostgreSQL side of a database: Kysely's adapter, holding the pool so its use can be read (poolStats). */
class PooledPostgresAdapter extends PostgresAdapter {
  constructor(
    readonly pool: pg.Pool,
    /** Another pool of `max` connections on the same database, sharing this one's catalogue watch. */
    readonly sibling: (max: number) => pg.Pool,
  ) {
    super();
  }
}

class PooledPostgresDialect extends PostgresDialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly sibling: (max: number) => pg.Pool,
  ) {
    super({ pool });
  }

  override createAdapter(): PostgresAdapter {
    return new PooledPostgresAdapter(this.pool, this.sibling);
  }
}

/**
 * A database with connections of its own, for a front door whose bursts must not take the
 * connections of the others (RADIUS beside HTTP and the portal). PostgreSQL: a second pool of
 * `poolSize` connections to the same database, sharing the first one's catalogue watch (so catalogue
 * caches stay right on both); destroy it before the first. SQLite (one connection, one writer at a
 * time): `db` itself, nothing to share out, so the caller must not destroy it twice.
 */
export function createSiblingDatabase(db: DB, poolSize: number): DB {
  const adapter = db.getExecutor().adapter;
  if (!(adapter instanceof PooledPostgresAdapter)) return db;
  const pool = adapter.sibling(poolSize);
  return new Kysely<Database>({ dialect: new PooledPostgresDialect(pool, adapter.sibling) });
}

/**
 * What a database and its siblings (createSiblingDatabase) have in common, to key what belongs to
 * the database rather than to one pool: on PostgreSQL the function that makes the siblings (one per
 * createDatabase), on SQLite the adapter (a database and its transactions share it).
 */
export function databaseIdentity(db: DB): object {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof PooledPostgresAdapter ? adapter.sibling : adapter;
}

/** How the connection pool is used right now (PostgreSQL); undefined on SQLite, which has one connection. */
export function poolStats(db: DB): (() => { max: number; total: number; idle: number; waiting: number }) | undefined {
  const adapter = db.getExecutor().adapter;
  if (!(adapter instanceof PooledPostgresAdapter)) return undefined;
  const { pool } = adapter;
  return () => ({ max: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
}

export function createDatabase(url: string, opts: DatabaseOptions = {}): DB {
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...opts.timeouts };
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length) || ":memory:";
    if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    // SQLite's wait for another connection's write lock is the acquire timeout (SQLITE_BUSY after it: 503).
    sqlite.pragma(`busy_timeout = ${Math.trunc(timeouts.acquireMs)}`);
    sqlite.pragma("foreign_keys = ON");
    return new Kysely<Database>({ dialect: new StatefulSqliteDialect(new SqliteConnectionState(sqlite)) });
  }
  const poolOptions = { searchPath: opts.searchPath, timeouts, log: opts.log ?? STDERR_LOG };
  const pool = createPostgresPool(url, { ...poolOptions, max: opts.poolSize ?? 10 });
  const sibling = (max: number) => createPostgresPool(url, { ...poolOptions, max, watch: changeWatchOf(pool) });
  return new Kysely<Database>({ dialect: new PooledPostgresDialect(pool, sibling) });
}
