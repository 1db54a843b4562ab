/**
 * Login and visit series for one or several locations. Days are the locations' own calendar days
 * (the aggregates are keyed by local day when recorded); several locations add up.
 */
import type { Static } from "@sinclair/typebox";
import type { DB } from "../../db/database.js";
import type { ErrorBag } from "../../errors.js";
import { checkDateRange, parseIdList } from "../../http/validation.js";
import { LOGIN_TYPES } from "../guests/login-types.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { requireOwnedLocations } from "../locations/locations.service.js";
import { ANALYTICS_MAX_DAYS, ANALYTICS_MAX_LOCATIONS, type AnalyticsParams } from "./analytics.schemas.js";
import { buildBuckets, sumIntoBuckets } from "./buckets.js";
import type { ClosedDaysCache } from "./closed-days-cache.js";
import { type CountKind, WIDTH, dailyCounts } from "./daily-counts.js";

type Params = Static<typeof AnalyticsParams>;

export interface SeriesResult {
  series: { name: string; data: number[] }[];
  categories: string[];
}

/** Validates the common parameters; returns the owned locations (deleted ones too: their history stays readable). */
async function locationsAndRange(db: DB, accountId: number, p: Params, bag: ErrorBag): Promise<LocationRow[]> {
  const ids = parseIdList(p.location_id, "location_id", bag, ANALYTICS_MAX_LOCATIONS);
  const rows = await requireOwnedLocations(db, accountId, ids, "location_id", bag);
  checkDateRange(p.from_date, p.to_date, ANALYTICS_MAX_DAYS, bag);
  bag.throwIfAny();
  return rows;
}

async function series(db: DB, cache: ClosedDaysCache, kind: CountKind, accountId: number, p: Params, bag: ErrorBag, now: number) {
  const locations = await locationsAndRange(db, accountId, p, bag);
  const buckets = buildBuckets(p.from_date, p.to_date, p.agg ?? "DAY");
  const perDay = await dailyCounts(db, cache, kind, locations, p.from_date, p.to_date, now);
  return { data: sumIntoBuckets(buckets, perDay, WIDTH[kind]), categories: buckets.categories };
}

/** One series per login type, in the fixed order of login-types.ts, counting logins. */
export async function socialLogins(
  db: DB,
  cache: ClosedDaysCache,
  accountId: number,
  p: Params,
  bag: ErrorBag,
  now = Date.now(),
): Promise<SeriesResult> {
  const { data, categories } = await series(db, cache, "logins", accountId, p, bag, now);
  return { series: LOGIN_TYPES.map((t, i) => ({ name: t.series, data: data[i] })), categories };
}

/**
 * One series "Visits": distinct guests connected per day (portal login or RADIUS reconnect).
 * A WEEK or MONTH bucket is the sum of its daily visits, so a guest who came on three days counts three times.
 */
export async function visits(
  db: DB,
  cache: ClosedDaysCache,
  accountId: number,
  p: Params,
  bag: ErrorBag,
  now = Date.now(),
): Promise<SeriesResult> {
  const { data, categories } = await series(db, cache, "visits", accountId, p, bag, now);
  return { series: [{ name: "Visits", data: data[0] }], categories };
}
