/**
 * Rows kept in memory for as long as the database has not changed at all (see changeGeneration).
 * Hot reads (get-location, returning guests in RADIUS) skip the database when nothing was written;
 * any write anywhere clears them. Inside transactions nothing is held; on PostgreSQL only caches of
 * catalogue rows hold anything (see changeGeneration).
 */
import { type DB, changeGeneration } from "./database.js";

interface Held<K, V> {
  generation: string | undefined;
  rows: Map<K, V>;
}

export class ReadCache<K extends string | number, V> {
  private readonly perDb = new WeakMap<DB, Held<K, V>>();

  /**
   * `catalogueOnly`: the cache holds rows of the catalogue tables only (change-watch.ts), so it may
   * hold them on PostgreSQL too.
   */
  constructor(
    private readonly maxEntries = 10_000,
    private readonly catalogueOnly = false,
  ) {}

  /** The rows for `db`, emptied first when the database changed since they were read. */
  private current(db: DB): Held<K, V> | undefined {
    const gen = changeGeneration(db, this.catalogueOnly);
    if (gen === undefined) return undefined;
    let held = this.perDb.get(db);
    if (!held) {
      held = { generation: gen, rows: new Map() };
      this.perDb.set(db, held);
    } else if (held.generation !== gen) {
      // A new map rather than clear(): on SQLite every write changes the generation.
      held.rows = new Map();
      held.generation = gen;
    }
    return held;
  }

  get(db: DB, key: K): V | undefined {
    return this.current(db)?.rows.get(key);
  }

  /** Cached values for all `keys`, or undefined when any is missing or the database changed. */
  getAll(db: DB, keys: K[]): V[] | undefined {
    const held = this.current(db);
    if (!held) return undefined;
    const out: V[] = [];
    for (const key of keys) {
      const v = held.rows.get(key);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }

  /**
   * Runs `read` for a value that was not cached, and keeps what it found unless the database
   * changed while it ran (the generation is taken before the query, here, so no caller can forget).
   */
  async load(db: DB, key: K, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = changeGeneration(db, this.catalogueOnly);
    const v = await read();
    if (v !== undefined) this.keep(db, generation, [[key, v]]);
    return v;
  }

  /** `load` for many rows at once, each kept under `keyOf(row)`. */
  async loadAll(db: DB, read: () => Promise<V[]>, keyOf: (v: V) => K): Promise<V[]> {
    const generation = changeGeneration(db, this.catalogueOnly);
    const rows = await read();
    this.keep(
      db,
      generation,
      rows.map((v) => [keyOf(v), v]),
    );
    return rows;
  }

  private keep(db: DB, generation: string | undefined, entries: [K, V][]): void {
    const held = this.current(db);
    if (!held || generation !== held.generation) return;
    for (const [key, v] of entries) {
      // Full: the oldest row goes (a Map iterates in insertion order), not all of them.
      if (held.rows.size >= this.maxEntries && !held.rows.has(key)) held.rows.delete(held.rows.keys().next().value as K);
      held.rows.set(key, v);
    }
  }
}
