/**
 * Per-day counts of several locations, summed: what both analytics series are made of. Closed days
 * come from the ClosedDaysCache when it has them; the rest is read from the daily aggregates.
 */
import type { Ctx } from "../context.js";
import { daysBetween } from "../guests/local-day.js";
import { LOGIN_TYPES } from "../guests/login-types.js";
import { type ClosedDaysCache, lastClosedDay } from "./closed-days-cache.js";

/**
 * logins: one number per login type, in the order of LOGIN_TYPES; visits (distinct visitors),
 * new_guests (first time at the location) and usage (octets): one number.
 */
export type CountKind = "logins" | "visits" | "new_guests" | "usage" | "hours";

/** hours: logins per local hour of the day, 24 numbers (hourly_logins). */
export const WIDTH: Record<CountKind, number> = { logins: LOGIN_TYPES.length, visits: 1, new_guests: 1, usage: 1, hours: 24 };

const TYPE_INDEX = new Map<string, number>(LOGIN_TYPES.map((t, i) => [t.code, i]));

interface Pending {
  id: number;
  /** From this day on, everything is read from the database. */
  firstDay: string;
  lastClosed: string;
}

async function readRows(ctx: Ctx, kind: CountKind, ids: number[], from: string, to: string) {
  const repo = ctx.repos.analytics;
  if (kind === "visits") return (await repo.visitsByLocationDay(ctx.db, ids, from, to)).map((r) => ({ ...r, index: 0 }));
  if (kind === "new_guests") return (await repo.newGuestsByLocationDay(ctx.db, ids, from, to)).map((r) => ({ ...r, index: 0 }));
  if (kind === "usage") return (await repo.usageByLocationDay(ctx.db, ids, from, to)).map((r) => ({ ...r, index: 0 }));
  if (kind === "hours") {
    const rows = await repo.loginsByLocationDayHour(ctx.db, ids, from, to);
    return rows.map((r) => {
      const hour = Number(r.hour);
      return { location_id: r.location_id, day: r.day, count: r.count, index: hour >= 0 && hour < 24 ? hour : undefined };
    });
  }
  const rows = await repo.loginsByLocationDay(ctx.db, ids, from, to);
  return rows.map((r) => ({ location_id: r.location_id, day: r.day, count: r.count, index: TYPE_INDEX.get(r.login_type) }));
}

/** Day -> counts summed over `locations`, for the days of [from, to] that have any. */
export async function dailyCounts(
  ctx: Ctx,
  cache: ClosedDaysCache,
  kind: CountKind,
  locations: { id: number; timezone: string }[],
  from: string,
  to: string,
  now = Date.now(),
): Promise<Map<string, number[]>> {
  const width = WIDTH[kind];
  const days = daysBetween(from, to);
  const sums = new Map<string, number[]>();
  const add = (day: string, counts: readonly number[]) => {
    let s = sums.get(day);
    if (!s) {
      s = new Array<number>(width).fill(0);
      sums.set(day, s);
    }
    for (let i = 0; i < width; i++) s[i] += counts[i];
  };

  const pending: Pending[] = [];
  for (const loc of locations) {
    const lastClosed = lastClosedDay(now, loc.timezone);
    const series = cache.seriesOf(kind, loc.id);
    for (const day of days) {
      const cached = day <= lastClosed ? series.get(day, now) : undefined;
      if (!cached) {
        pending.push({ id: loc.id, firstDay: day, lastClosed });
        break;
      }
      add(day, cached);
    }
  }
  if (pending.length === 0) return sums;

  const start = pending.map((p) => p.firstDay).sort()[0]; // YYYY-MM-DD strings sort as days
  const byLocation = new Map<number, Map<string, number[]>>(pending.map((p) => [p.id, new Map()]));
  const firstDayOf = new Map(pending.map((p) => [p.id, p.firstDay]));
  for (const r of await readRows(ctx, kind, [...byLocation.keys()], start, to)) {
    if (r.index === undefined || r.day < firstDayOf.get(r.location_id)!) continue;
    const perDay = byLocation.get(r.location_id)!;
    let counts = perDay.get(r.day);
    if (!counts) {
      counts = new Array<number>(width).fill(0);
      perDay.set(r.day, counts);
    }
    counts[r.index] += Number(r.count);
  }
  const zeros: readonly number[] = Object.freeze(new Array<number>(width).fill(0));
  for (const p of pending) {
    const perDay = byLocation.get(p.id)!;
    const series = cache.seriesOf(kind, p.id);
    for (const day of days) {
      if (day < p.firstDay) continue;
      const counts = perDay.get(day) ?? zeros;
      add(day, counts);
      // Days without any row are remembered too: most closed days of a quiet venue are zeros.
      if (day <= p.lastClosed) series.set(day, counts, now);
    }
  }
  return sums;
}
