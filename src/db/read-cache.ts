/**
 * Rows kept in memory for as long as the database has not changed at all (see changeGeneration).
 * Hot reads (get-location) skip the database when nothing was written; any write anywhere clears it.
 * On PostgreSQL it never holds anything.
 */
import { type DB, changeGeneration } from "./database.js";

export class ReadCache<V> {
  private generation: string | undefined;
  private rows = new Map<number, V>();

  constructor(private readonly maxEntries = 10_000) {}

  /** Cached values for all `ids`, or undefined when any is missing or the database changed. */
  getAll(db: DB, ids: number[]): V[] | undefined {
    const gen = changeGeneration(db);
    if (gen === undefined) return undefined;
    if (gen !== this.generation) {
      this.rows.clear();
      this.generation = gen;
      return undefined;
    }
    const out: V[] = [];
    for (const id of ids) {
      const v = this.rows.get(id);
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }

  /** Stores values read under the current generation (read it before the query, pass it here). */
  setAll(generation: string | undefined, entries: [number, V][]): void {
    if (generation === undefined || generation !== this.generation) {
      this.rows.clear();
      this.generation = generation;
      if (generation === undefined) return;
    }
    if (this.rows.size + entries.length > this.maxEntries) this.rows.clear();
    for (const [id, v] of entries) this.rows.set(id, v);
  }
}
