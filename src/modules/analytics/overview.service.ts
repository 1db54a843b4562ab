/**
 * What the console's overview shows for one location or several, over any range of days: logins per
 * login type, visits, new against returning guests and data used, per day. The same daily aggregates
 * and the same closed-days cache as get-social-logins and get-visits, so that the numbers are exactly
 * theirs for the same days; one read of each aggregate per request, whatever the number of locations.
 */
import type { Static } from "@sinclair/typebox";
import type { Ctx } from "../context.js";
import type { Overview as OverviewSchema } from "./analytics.schemas.js";
import { daysBetween } from "../guests/local-day.js";
import { LOGIN_TYPES } from "../guests/login-types.js";
import type { ClosedDaysCache } from "./closed-days-cache.js";
import { type CountKind, WIDTH, dailyCounts } from "./daily-counts.js";
import { hourOfWeekCounts } from "./hour-of-week.js";

/** The overview's answer: its TypeBox schema (analytics.schemas.ts) is the one source of its shape. */
export type Overview = Static<typeof OverviewSchema>;

export async function overview(
  ctx: Ctx,
  cache: ClosedDaysCache,
  locations: { id: number; timezone: string }[],
  fromDay: string,
  toDay: string,
  now = Date.now(),
): Promise<Overview> {
  const days = daysBetween(fromDay, toDay);
  const read = async (kind: CountKind) => {
    const perDay = await dailyCounts(ctx, cache, kind, locations, fromDay, toDay, now);
    const width = WIDTH[kind];
    const out = Array.from({ length: width }, () => new Array<number>(days.length).fill(0));
    days.forEach((day, d) => {
      const counts = perDay.get(day);
      if (counts) for (let i = 0; i < width; i++) out[i][d] = counts[i];
    });
    return out;
  };
  const [logins, [visits], [newGuests], [usageBytes], hours] = await Promise.all([
    read("logins"),
    read("visits"),
    read("new_guests"),
    read("usage"),
    hourOfWeekCounts(ctx, locations, fromDay, toDay, cache, now),
  ]);
  const returningGuests = visits.map((v, d) => Math.max(0, v - newGuests[d]));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    days,
    logins: LOGIN_TYPES.map((t, i) => ({ type: t.code, name: t.series, data: logins[i] })),
    visits,
    newGuests,
    returningGuests,
    usageBytes,
    hours,
    totals: {
      logins: logins.reduce((a, s) => a + sum(s), 0),
      visits: sum(visits),
      newGuests: sum(newGuests),
      returningGuests: sum(returningGuests),
      usageBytes: sum(usageBytes),
    },
  };
}
