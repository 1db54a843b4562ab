/**
 * Visits are counted once per guest, location and local day (countVisit is idempotent), yet every
 * Access-Request and Accounting-Request of a guest would ask again. This process remembers what it
 * already counted, so only the first packet of the day writes. Another instance sharing the
 * database counts on its own first packet; countVisit keeps that a no-op.
 */
import { toDbDatetime } from "../db/time.js";
import { localDay } from "../modules/guests/local-day.js";

const MAX_ENTRIES = 200_000;

const dayCache = new Map<string, { minute: number; day: string }>();

/** localDay, formatted once per zone and minute: in every zone a day starts on a whole minute. */
export function localDayCached(at: Date, timeZone: string): string {
  const minute = Math.floor(at.getTime() / 60_000);
  const hit = dayCache.get(timeZone);
  if (hit && hit.minute === minute) return hit.day;
  const day = localDay(at, timeZone);
  dayCache.set(timeZone, { minute, day });
  return day;
}

const datetimeCache = new Map<number, string>();

/** toDbDatetime, formatted once per second (every packet needs "now", and often "now - N days"). */
export function dbDatetimeCached(at: Date): string {
  const second = Math.floor(at.getTime() / 1000);
  let s = datetimeCache.get(second);
  if (s === undefined) {
    if (datetimeCache.size >= 16) datetimeCache.clear();
    s = toDbDatetime(at);
    datetimeCache.set(second, s);
  }
  return s;
}

export class VisitMemo {
  private readonly counted = new Set<string>();

  private key(locationId: number, day: string, guestId: number): string {
    return `${locationId}|${day}|${guestId}`;
  }

  has(locationId: number, day: string, guestId: number): boolean {
    return this.counted.has(this.key(locationId, day, guestId));
  }

  /** Call once the visit is committed. */
  remember(locationId: number, day: string, guestId: number): void {
    if (this.counted.size >= MAX_ENTRIES) this.counted.clear();
    this.counted.add(this.key(locationId, day, guestId));
  }
}
