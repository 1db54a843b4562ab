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

/** One per app (it holds counts of that app's database); bounded, least recently used entries go first. */
export class ClosedDaysCache {
  // Expiry is checked against the caller's `now` (the one the series is computed for), not a clock of the cache.
  private readonly entries: LRUCache<string, { until: number; counts: readonly number[] }>;

  constructor(
    private readonly ttlMs = CLOSED_DAYS_TTL_MS,
    maxEntries = 200_000,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  private static key(kind: string, locationId: number, day: string): string {
    return `${kind}:${locationId}:${day}`;
  }

  get(kind: string, locationId: number, day: string, now: number): readonly number[] | undefined {
    const e = this.entries.get(ClosedDaysCache.key(kind, locationId, day));
    return e && e.until > now ? e.counts : undefined;
  }

  set(kind: string, locationId: number, day: string, counts: readonly number[], now: number): void {
    if (this.ttlMs <= 0) return;
    this.entries.set(ClosedDaysCache.key(kind, locationId, day), { until: now + this.ttlMs, counts });
  }
}
