/**
 * "Busiest hours of the week": logins per local weekday and hour, summed over several locations
 * and the local days from..to. Read from the hourly aggregate (one row per location, day, hour and
 * shard), never from the raw logins.
 */
import type { Ctx } from "../context.js";
import { weekdayOf } from "../guests/local-day.js";
import { ClosedDaysCache } from "./closed-days-cache.js";
import { dailyCounts } from "./daily-counts.js";

/** Weekdays times hours: index = weekday * 24 + hour, weekday 0 = Monday. */
export const HOURS_OF_WEEK = 7 * 24;

/**
 * 168 numbers: the logins at `locations` on their local days `from`..`to` (YYYY-MM-DD, inclusive),
 * by local weekday (Monday 0) and local hour. Each location's days and hours are its own time
 * zone's, as they were recorded.
 */
export async function hourOfWeekCounts(
  ctx: Ctx,
  locations: { id: number; timezone: string }[],
  from: string,
  to: string,
  cache: ClosedDaysCache = new ClosedDaysCache(0),
  now = Date.now(),
): Promise<number[]> {
  const out = new Array<number>(HOURS_OF_WEEK).fill(0);
  if (locations.length === 0 || from > to) return out;
  const unique = [...new Map(locations.map((l) => [l.id, l])).values()];
  // Per local day, the 24 hours summed over the locations; closed days from the cache when it has them.
  const perDay = await dailyCounts(ctx, cache, "hours", unique, from, to, now);
  for (const [day, hours] of perDay) {
    const w = weekdayOf(day);
    for (let h = 0; h < 24; h++) out[w * 24 + h] += hours[h];
  }
  return out;
}
