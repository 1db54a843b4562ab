/**
 * Hot-path SQL (RADIUS packets, portal pages), built with Kysely once per database (so the SQL stays right
 * for each dialect) and then only run with new parameters: building and compiling a Kysely query
 * costs more than running a small indexed one. On SQLite the statement runs synchronously on the
 * connection when that is safe (see sqliteDirect); otherwise, and on PostgreSQL, the compiled query
 * goes through Kysely's executor (pool, transaction, connection lock) like any other.
 */
import type { Statement } from "better-sqlite3";
import { type Compilable, CompiledQuery } from "kysely";
import { writesCatalogue } from "./catalogue.js";
import { type DB, type SqliteDirect, sqliteDirect } from "./database.js";

/** Stands for a named parameter while the query is built; replaced by its value at each run. */
const MARK = "\u0000prepared-param:";

interface Compiled {
  sql: string;
  /** Per SQL parameter: the name of the value to bind, or undefined for a constant of the query. */
  slots: (string | undefined)[];
  constants: unknown[];
  direct: SqliteDirect | undefined;
  /** Writes a catalogue table (read caches of catalogue rows watch those writes only). */
  catalogue: boolean;
  statement?: Statement;
}

export class PreparedQuery<K extends string> {
  /** Keyed by the Kysely adapter: a database and its transactions share one. */
  private readonly byAdapter = new WeakMap<object, Compiled>();

  constructor(
    private readonly keys: readonly K[],
    // Values are markers while building: the builder must pass them through unchanged.
    private readonly build: (db: DB, p: Record<K, never>) => Compilable,
  ) {}

  private compiled(db: DB): Compiled {
    const adapter = db.getExecutor().adapter;
    let c = this.byAdapter.get(adapter);
    if (c) return c;
    const marks = Object.fromEntries(this.keys.map((k) => [k, `${MARK}${k}`])) as unknown as Record<K, never>;
    const q = this.build(db, marks).compile();
    const slots = q.parameters.map((v) => (typeof v === "string" && v.startsWith(MARK) ? v.slice(MARK.length) : undefined));
    for (const k of this.keys) if (!slots.includes(k)) throw new Error(`prepared query does not use parameter ${k}: ${q.sql}`);
    c = { sql: q.sql, slots, constants: [...q.parameters], direct: sqliteDirect(db), catalogue: writesCatalogue(q.sql) };
    this.byAdapter.set(adapter, c);
    return c;
  }

  private params(c: Compiled, values: Record<K, unknown>): unknown[] {
    const out = new Array<unknown>(c.slots.length);
    for (let i = 0; i < out.length; i++) {
      const slot = c.slots[i];
      out[i] = slot === undefined ? c.constants[i] : values[slot as K];
    }
    return out;
  }

  /** The connection to use directly, when it is free for us (our own transaction, or none open). */
  private static statementFor(db: DB, c: Compiled): Statement | undefined {
    const d = c.direct;
    if (!d || (!db.isTransaction && d.inTransaction)) return undefined;
    c.statement ??= d.prepare(c.sql);
    return c.statement;
  }

  /** The first row (a select). */
  async first<R>(db: DB, values: Record<K, unknown>): Promise<R | undefined> {
    const c = this.compiled(db);
    const params = this.params(c, values);
    const stmt = PreparedQuery.statementFor(db, c);
    if (stmt) return stmt.get(params) as R | undefined;
    const res = await db.executeQuery<R>(CompiledQuery.raw(c.sql, params));
    return res.rows[0];
  }

  /** Every row (a select). */
  async all<R>(db: DB, values: Record<K, unknown>): Promise<R[]> {
    const c = this.compiled(db);
    const params = this.params(c, values);
    const stmt = PreparedQuery.statementFor(db, c);
    if (stmt) return stmt.all(params) as R[];
    const res = await db.executeQuery<R>(CompiledQuery.raw(c.sql, params));
    return res.rows;
  }

  /** The first row a write returns (an insert or update with RETURNING). */
  async writeReturning<R>(db: DB, values: Record<K, unknown>): Promise<R | undefined> {
    return (await this.written<R>(db, values, false))[0];
  }

  /** Every row a write returns. */
  writeReturningAll<R>(db: DB, values: Record<K, unknown>): Promise<R[]> {
    return this.written<R>(db, values, true);
  }

  private async written<R>(db: DB, values: Record<K, unknown>, all: boolean): Promise<R[]> {
    const c = this.compiled(db);
    const params = this.params(c, values);
    const stmt = PreparedQuery.statementFor(db, c);
    if (stmt) {
      c.direct!.noteWrite(c.catalogue);
      return all ? (stmt.all(params) as R[]) : [stmt.get(params) as R];
    }
    const res = await db.executeQuery<R>(CompiledQuery.raw(c.sql, params));
    return res.rows;
  }

  /**
   * An insert on SQLite: rows inserted (0 when ON CONFLICT DO NOTHING skipped it) and the new
   * row's id. A RETURNING clause makes SQLite collect the row in a temporary table first: a
   * RETURNING * of one row cost more than the insert itself (radius_sessions: 17 against 7 µs).
   * PostgreSQL has no last-insert id: use writeReturning there.
   */
  async insert(db: DB, values: Record<K, unknown>): Promise<{ inserted: number; id: number }> {
    const c = this.compiled(db);
    const params = this.params(c, values);
    const stmt = PreparedQuery.statementFor(db, c);
    if (stmt) {
      c.direct!.noteWrite(c.catalogue);
      const res = stmt.run(params);
      return { inserted: res.changes, id: Number(res.lastInsertRowid) };
    }
    const res = await db.executeQuery(CompiledQuery.raw(c.sql, params));
    return { inserted: Number(res.numAffectedRows ?? 0), id: Number(res.insertId ?? 0) };
  }

  /** Rows changed (an insert, update or delete). */
  async run(db: DB, values: Record<K, unknown>): Promise<number> {
    const c = this.compiled(db);
    const params = this.params(c, values);
    const stmt = PreparedQuery.statementFor(db, c);
    if (stmt) {
      c.direct!.noteWrite(c.catalogue);
      return stmt.run(params).changes;
    }
    const res = await db.executeQuery(CompiledQuery.raw(c.sql, params));
    return Number(res.numAffectedRows ?? 0);
  }
}

/**
 * A select's rows as arrays of their columns in select order. On SQLite, read from the statement
 * in raw mode when the connection is free for us: better-sqlite3 then builds no object with named
 * keys per row, which took two thirds of reading a page of 1,000 live sessions (15 columns, three
 * tables: 5.4 against 1.8 ms). Elsewhere, through Kysely's executor, each row's values in order.
 */
export async function selectArrays(db: DB, query: Compilable): Promise<unknown[][]> {
  const q = query.compile();
  const d = sqliteDirect(db);
  if (d && (db.isTransaction || !d.inTransaction)) {
    // The cached statement is shared by its SQL text: raw mode is set for this run only.
    const stmt = d.prepare(q.sql).raw(true);
    try {
      return stmt.all(q.parameters as unknown[]) as unknown[][];
    } finally {
      stmt.raw(false);
    }
  }
  const res = await db.executeQuery<Record<string, unknown>>(q);
  return res.rows.map((row) => Object.values(row));
}
