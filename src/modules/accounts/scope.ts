/**
 * A sub-user's scope: the locations it may see and change. Stored as a list column (",1,2,") with ""
 * for every location of the account, which is also what an owner has.
 */
import { listOf, listText } from "../../db/list-column.js";

/** The location ids of a stored scope, or null for every location. */
export function scopeOf(stored: string | null | undefined): number[] | null {
  if (!stored) return null;
  const ids = listOf(stored).map(Number);
  return ids.length === 0 ? null : ids;
}

/** What to store for a list of location ids (empty: every location). */
export function scopeText(locationIds: readonly number[]): string {
  return listText([...new Set(locationIds)].sort((a, b) => a - b));
}
