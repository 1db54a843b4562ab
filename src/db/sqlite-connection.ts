/**
 * The SQLite side of a database: one connection, a cache of prepared statements, the count of
 * writes that read caches watch (see changeGeneration), and direct access for the hot paths. All
 * of it belongs to the Kysely adapter made for this database, which the database and its
 * transactions share: no registry outside it.
 */
import type SQLite from "better-sqlite3";
import { SqliteAdapter, SqliteDialect } from "kysely";
import { LRUCache } from "lru-cache";
import { writesCatalogue } from "./catalogue.js";
import { CHECKPOINTER_AFTER_WRITES, type Checkpointer, startCheckpointer } from "./sqlite-checkpointer.js";

/** How stale another connection's commit may look to changeGeneration. */
export const OTHER_CONNECTION_POLL_MS = 50;
/** Queries are parameterised, so the set of texts is small; this bounds it all the same. */
const STATEMENT_CACHE_MAX = 500;
/**
 * Writing statements between two runs of `PRAGMA optimize`. SQLite gathers no statistics by itself
 * (PostgreSQL's autovacuum does): without them its planner guesses, and guessed wrong for the API's
 * session-list over several locations of a big venue (every open session of those locations read,
 * joined and sorted for one page: 52 ms instead of 4 ms at 200,000 open sessions). A file database
 * runs `PRAGMA optimize=0x10002` when it opens (every table checked) and `PRAGMA optimize` after every
 * OPTIMIZE_EVERY_WRITES writes, as SQLite advises for long-lived connections. Since SQLite 3.46 it
 * analyses only tables the connection used whose size changed a lot, on a bounded sample (about a
 * millisecond at 100,000 rows), and does nothing otherwise.
 */
export const OPTIMIZE_EVERY_WRITES = 10_000;

interface CachedStatement {
  stmt: SQLite.Statement;
  /** Anything but a SELECT may write (INSERT ... RETURNING reads rows and writes). */
  writes: boolean;
  /** Writes a catalogue table (catalogue.ts). */
  catalogue: boolean;
}

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
  /** `catalogue`: the statement writes a catalogue table (see catalogue.ts). */
  noteWrite(catalogue: boolean): void;
  readonly inTransaction: boolean;
}

export class SqliteConnectionState implements SqliteDirect {
  /**
   * Kysely prepares every query anew; preparing costs more than running a small indexed query.
   * Kysely's connection and the direct hot paths share this cache.
   */
  private readonly statements: LRUCache<string, CachedStatement>;
  private localWrites = 0;
  private catalogueWrites = 0;
  private readonly dataVersion: SQLite.Statement;
  private version = 0;
  private versionAt = Number.NEGATIVE_INFINITY;
  /** Checkpoints off the event loop, once this file database has written a little (sqlite-checkpointer.ts). */
  private checkpointer: Checkpointer | undefined;
  private optimizeQueued = false;

  constructor(readonly sqlite: SQLite.Database) {
    this.statements = new LRUCache({ max: STATEMENT_CACHE_MAX });
    this.dataVersion = sqlite.prepare("pragma data_version").pluck();
    if (!sqlite.memory) this.optimize("optimize = 0x10002");
  }

  private cached(source: string): CachedStatement {
    let entry = this.statements.get(source);
    if (!entry) {
      entry = { stmt: this.sqlite.prepare(source), writes: !/^\s*select\b/i.test(source), catalogue: writesCatalogue(source) };
      this.statements.set(source, entry);
    }
    return entry;
  }

  prepare(source: string): SQLite.Statement {
    return this.cached(source).stmt;
  }

  noteWrite(catalogue: boolean): void {
    const writes = ++this.localWrites;
    if (writes === CHECKPOINTER_AFTER_WRITES) this.startCheckpointer();
    if (writes % OPTIMIZE_EVERY_WRITES === 0) this.queueOptimize();
    if (catalogue) this.catalogueWrites++;
  }

  /**
   * The statistics run between two statements, never inside a transaction of ours (ANALYZE writes
   * sqlite_stat1, which a rollback would take back): a write notes itself before it runs.
   */
  private queueOptimize(): void {
    if (this.optimizeQueued || this.sqlite.memory) return;
    this.optimizeQueued = true;
    const attempt = () => {
      if (!this.sqlite.open) return;
      if (this.sqlite.inTransaction) {
        setTimeout(attempt, 20).unref();
        return;
      }
      this.optimizeQueued = false;
      this.optimize("optimize");
    };
    setImmediate(attempt).unref();
  }

  /** Statistics only help: a failure (a busy or read-only file) leaves the planner as it was. */
  private optimize(pragma: string): void {
    try {
      this.sqlite.pragma(pragma);
    } catch (err) {
      process.stderr.write(`SQLite: ${pragma} failed (${(err as Error).message}); the planner keeps its previous statistics\n`);
    }
  }

  private startCheckpointer(): void {
    if (this.checkpointer || this.sqlite.memory || !this.sqlite.open) return;
    this.checkpointer = startCheckpointer(this.sqlite, (msg) => process.stderr.write(`${msg}\n`));
  }

  /** How many checkpoints ran off the event loop and on it (undefined before the checkpointer started). */
  get checkpoints() {
    return this.checkpointer?.stats;
  }

  get inTransaction(): boolean {
    return this.sqlite.inTransaction;
  }

  /** See changeGeneration. Asking SQLite for data_version on every hot read cost as much as the rest of a cached look-up. */
  generation(catalogueOnly = false): string {
    const now = Date.now();
    if (now - this.versionAt >= OTHER_CONNECTION_POLL_MS) {
      this.version = this.dataVersion.get() as number;
      this.versionAt = now;
    }
    return `${catalogueOnly ? `c${this.catalogueWrites}` : this.localWrites}:${this.version}`;
  }

  /**
   * The connection as Kysely sees it: `prepare` answers from the cache and counts a possible write
   * (Kysely prepares a statement right before each run), which read caches use.
   */
  kyselyConnection(): SQLite.Database {
    return new Proxy(this.sqlite, {
      get: (target, prop, receiver) => {
        if (prop === "prepare") {
          return (source: string) => {
            const { stmt, writes, catalogue } = this.cached(source);
            if (writes) this.noteWrite(catalogue);
            return stmt;
          };
        }
        if (prop === "close") {
          return () => {
            this.checkpointer?.stop();
            return target.close();
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}

/** Kysely's SQLite adapter, carrying the connection state of its database. */
export class StatefulSqliteAdapter extends SqliteAdapter {
  constructor(readonly state: SqliteConnectionState) {
    super();
  }
}

export class StatefulSqliteDialect extends SqliteDialect {
  constructor(private readonly state: SqliteConnectionState) {
    super({ database: state.kyselyConnection() });
  }

  override createAdapter(): StatefulSqliteAdapter {
    return new StatefulSqliteAdapter(this.state);
  }
}
