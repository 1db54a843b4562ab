/**
 * Login and visit series for one or several locations. Days are the locations' own calendar days
 * (the aggregates are keyed by local day when recorded); several locations add up.
 */
import type { Ctx } from "../context.js";
import { LOGIN_TYPES } from "../guests/login-types.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { type Aggregation, buildBuckets, sumIntoBuckets } from "./buckets.js";
import type { ClosedDaysCache } from "./closed-days-cache.js";
import { type CountKind, WIDTH, dailyCounts } from "./daily-counts.js";

export interface SeriesResult {
  series: { name: string; data: number[] }[];
  categories: string[];
}

export interface SeriesQuery {
  /** Owned locations (deleted ones too: their history stays readable). */
  locations: LocationRow[];
  fromDay: string;
  toDay: string;
  agg: Aggregation;
}

async function series(ctx: Ctx, cache: ClosedDaysCache, kind: CountKind, q: SeriesQuery, now: number) {
  const buckets = buildBuckets(q.fromDay, q.toDay, q.agg);
  const perDay = await dailyCounts(ctx, cache, kind, q.locations, q.fromDay, q.toDay, now);
  return { data: sumIntoBuckets(buckets, perDay, WIDTH[kind]), categories: buckets.categories };
}

/** One series per login type, in the fixed order of login-types.ts, counting logins. */
export async function socialLogins(ctx: Ctx, cache: ClosedDaysCache, q: SeriesQuery, now = Date.now()): Promise<SeriesResult> {
  const { data, categories } = await series(ctx, cache, "logins", q, now);
  return { series: LOGIN_TYPES.map((t, i) => ({ name: t.series, data: data[i] })), categories };
}

/**
 * One series "Visits": distinct guests connected per day (portal login or RADIUS reconnect).
 * A WEEK or MONTH bucket is the sum of its daily visits, so a guest who came on three days counts three times.
 */
export async function visits(ctx: Ctx, cache: ClosedDaysCache, q: SeriesQuery, now = Date.now()): Promise<SeriesResult> {
  const { data, categories } = await series(ctx, cache, "visits", q, now);
  return { series: [{ name: "Visits", data: data[0] }], categories };
}
export { HOURS_OF_WEEK, hourOfWeekCounts } from "./hour-of-week.js";
