/**
 * "Busiest hours of the week": logins per local weekday and hour, summed over several locations
 * and the local days from..to. Read from the hourly aggregate (one row per location, day, hour and
 * shard), never from the raw logins.
 */
import type { Ctx } from "../context.js";
import { weekdayOf } from "../guests/local-day.js";

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
): Promise<number[]> {
  const out = new Array<number>(HOURS_OF_WEEK).fill(0);
  if (locations.length === 0 || from > to) return out;
  const ids = [...new Set(locations.map((l) => l.id))];
  const rows = await ctx.repos.analytics.loginsByLocationDayHour(ctx.db, ids, from, to);
  const weekdays = new Map<string, number>();
  for (const r of rows) {
    let w = weekdays.get(r.day);
    if (w === undefined) {
      w = weekdayOf(r.day);
      weekdays.set(r.day, w);
    }
    const hour = Number(r.hour);
    if (hour >= 0 && hour < 24) out[w * 24 + hour] += Number(r.count);
  }
  return out;
}
