/**
 * The pg driver, loaded on first use rather than at start: an installation on SQLite never needs it,
 * and loading it was a tenth of the service's start. Loading it also sets how its values are read:
 * int8 (COUNT, SUM, bigint columns) and numeric as JavaScript numbers (our counters stay below 2^53).
 */
import { createRequire } from "node:module";
import type pg from "pg";

let loaded: typeof pg | undefined;

export function pgModule(): typeof pg {
  if (!loaded) {
    const mod = createRequire(import.meta.url)("pg") as typeof pg;
    mod.types.setTypeParser(20, (v) => Number(v));
    mod.types.setTypeParser(1700, (v) => Number(v));
    loaded = mod;
  }
  return loaded;
}
