/**
 * The PostgreSQL connection pool, made to survive the database going away: a connection that
 * PostgreSQL terminates (a restart: 57P01) or whose socket resets is logged and dropped instead
 * of crashing the process with an unhandled 'error'; every wait is bounded (acquire, connect,
 * statement), and a connection whose server stopped answering is thrown away, not reused.
 */
import type pg from "pg";
import type { DatabaseTimeouts } from "../database-timeouts.js";
import { PgChangeWatch, writesCatalogue } from "./change-watch.js";
import { markConnectionFault } from "./database-errors.js";
import { pgModule } from "./pg-module.js";


/** Where faults that no request waits for are reported (pino's shape; Fastify's logger fits). */
export interface DatabaseLog {
  warn(obj: object, msg: string): void;
}

/**
 * How much longer than the server's statement_timeout the client waits before it decides the
 * server is not answering at all (a cancelled statement comes back as an error within this).
 */
const SILENT_SERVER_GRACE_MS = 1_000;

export interface PostgresPoolOptions {
  max: number;
  searchPath: string | undefined;
  timeouts: DatabaseTimeouts;
  log: DatabaseLog;
  /** The catalogue watch of another pool on the same database, shared (it is stopped by that pool's end). */
  watch?: PgChangeWatch;
}

/** What the log says about a database error: no client object, no connection parameters. */
function describe(err: unknown): object {
  const e = err as { message?: string; code?: string; severity?: string };
  return { message: e?.message, code: e?.code, severity: e?.severity };
}

const watches = new WeakMap<pg.Pool, PgChangeWatch>();

/**
 * Statements that start with this comment are run as named prepared statements: PostgreSQL parses
 * and plans them once per connection instead of on every run (the login's one statement is long).
 */
export const NAMED_STATEMENT = "/* named */ ";
/** Bounds how many statement texts get names (each connection keeps the ones it ran). */
const MAX_NAMED = 500;

/** The pool's watch of catalogue changes (see change-watch.ts). */
export function changeWatchOf(pool: pg.Pool): PgChangeWatch | undefined {
  return watches.get(pool);
}

export function createPostgresPool(url: string, opts: PostgresPoolOptions): pg.Pool {
  const { Client, Pool } = pgModule();
  const { timeouts, log } = opts;
  const names = new Map<string, string>();
  const named = (args: unknown[]): unknown[] => {
    const text = args[0];
    if (typeof text !== "string" || !text.startsWith(NAMED_STATEMENT)) return args;
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= MAX_NAMED) return args;
      name = `gw_${names.size + 1}`;
      names.set(text, name);
    }
    return [{ name, text, values: args[1] }];
  };
  const options = opts.searchPath ? `-c search_path=${opts.searchPath}` : undefined;
  const ownWatch = opts.watch === undefined;
  const watch = opts.watch ?? new PgChangeWatch({ connectionString: url, options, connectionTimeoutMillis: timeouts.connectMs, keepAlive: true });

  class GuardedClient extends Client {
    /** Wrote a catalogue table since it left the pool: its release (after the commit) moves the watch on. */
    wroteCatalogue = false;

    constructor(config: pg.ClientConfig) {
      // The pool passes its own options; opening a connection gets its own, shorter, limit.
      super({ ...config, connectionTimeoutMillis: timeouts.connectMs });
      this.on("error", (err) => log.warn({ err: describe(err) }, "database connection lost; it is dropped and a new one opened when needed"));
    }

    // Kysely calls query(sql, params) and awaits the promise.
    override query(...args: unknown[]): any {
      const writes = writesCatalogue(args[0]);
      if (writes) this.wroteCatalogue = true;
      const result = (super.query as (...a: unknown[]) => unknown)(...named(args));
      if (!(result instanceof Promise)) return result;
      return result.then(
        (r: unknown) => {
          if (writes) watch.noteLocalWrite();
          return r;
        },
        (err: Error) => {
          if (writes) watch.noteLocalWrite();
        if (err?.message === "Query read timeout") {
          // The statement may still be on the wire: this connection can never be trusted again.
          // Destroying its socket makes pg mark it unusable, so the pool discards it on release.
          (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
        }
        throw markConnectionFault(err);
        },
      );
    }
  }

  const pool = new Pool({
    connectionString: url,
    max: opts.max,
    options,
    Client: GuardedClient as unknown as typeof pg.Client,
    // pg-pool bounds both the wait for a free connection and the opening of a new one with this.
    connectionTimeoutMillis: timeouts.acquireMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + SILENT_SERVER_GRACE_MS,
    keepAlive: true,
  });
  // An idle connection that dies: already logged by the client's own listener; without a listener
  // here, pg-pool's 'error' event would end the process.
  pool.on("error", () => undefined);
  pool.on("release", (_err: unknown, client: unknown) => {
    const c = client as GuardedClient;
    if (c.wroteCatalogue) {
      c.wroteCatalogue = false;
      watch.noteLocalWrite();
    }
  });
  watches.set(pool, watch);
  const end = pool.end.bind(pool);
  pool.end = (async () => {
    if (ownWatch) await watch.stop();
    return end();
  }) as typeof pool.end;

  const connect = pool.connect.bind(pool);
  pool.connect = ((callback?: unknown) => {
    if (callback !== undefined) return (connect as (cb: unknown) => void)(callback);
    return connect().catch((err: Error) => {
      throw markConnectionFault(err);
    });
  }) as typeof pool.connect;
  return pool;
}
