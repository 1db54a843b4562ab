/**
 * Daily counts of days that are over no longer change: logins and visits are recorded on the local
 * day they happen. A 60-day series would otherwise read and turn into JavaScript values thousands of
 * aggregate rows per request, nearly all of them for days that are closed. Those are kept in memory
 * for a few minutes; only the recent days are read every time. A day counts as closed from two days
 * after it ended in the location's zone (late accounting, clocks of several instances). A write to an
 * older day (an import, the demo generator run beside a live server) shows after at most the TTL.
 */
import { LRUCache } from "lru-cache";
import { addDays, localDay } from "../guests/local-day.js";

export const CLOSED_DAYS_TTL_MS = 5 * 60_000;

/** The last local day at a location that no longer changes, at instant `now`. */
export function lastClosedDay(now: number, timeZone: string): string {
  return addDays(localDay(new Date(now), timeZone), -2);
}

/**
 * One per app (it holds counts of that app's database); bounded: at most `maxSeries` series (a kind
 * of count at one location), least recently used first out, each holding its closed days. Two
 * levels rather than one key per day: a year at twenty locations is 7,300 look-ups per kind, and
 * building a string key for each cost more than the rest of the request.
 */
export class ClosedDaysCache {
  // Expiry is checked against the caller's `now` (the one the series is computed for), not a clock of the cache.
  private readonly series: LRUCache<string, Map<string, { until: number; counts: readonly number[] }>>;

  constructor(
    private readonly ttlMs = CLOSED_DAYS_TTL_MS,
    maxSeries = 5_000,
  ) {
    this.series = new LRUCache({ max: maxSeries });
  }

  /** The closed days of one kind at one location, to look several days up at once. */
  seriesOf(kind: string, locationId: number): { get(day: string, now: number): readonly number[] | undefined; set(day: string, counts: readonly number[], now: number): void } {
    const key = `${kind}:${locationId}`;
    const ttl = this.ttlMs;
    const lru = this.series;
    let days = lru.get(key);
    return {
      get(day, now) {
        const e = days?.get(day);
        return e && e.until > now ? e.counts : undefined;
      },
      set(day, counts, now) {
        if (ttl <= 0) return;
        if (!days) {
          days = new Map();
          lru.set(key, days);
        }
        days.set(day, { until: now + ttl, counts });
      },
    };
  }

  get(kind: string, locationId: number, day: string, now: number): readonly number[] | undefined {
    return this.seriesOf(kind, locationId).get(day, now);
  }

  set(kind: string, locationId: number, day: string, counts: readonly number[], now: number): void {
    this.seriesOf(kind, locationId).set(day, counts, now);
  }
}
