/**
 * "Now" as the database stores it, and the local day in a location's time zone, formatted once
 * per second and per minute instead of once per packet (every packet needs both). Each RADIUS
 * server has its own.
 */
import { LRUCache } from "lru-cache";
import { toDbDatetime } from "../db/time.js";
import { localDay } from "../modules/guests/local-day.js";

export class PacketTime {
  /** Per time zone: the minute last formatted and its day. */
  private readonly days = new Map<string, { minute: number; day: string }>();
  /** "now" and "now - N days" alternate; a few seconds' worth is enough. */
  private readonly datetimes = new LRUCache<number, string>({ max: 16 });

  /** localDay, formatted once per zone and minute: in every zone a day starts on a whole minute. */
  localDay(at: Date, timeZone: string): string {
    const minute = Math.floor(at.getTime() / 60_000);
    const hit = this.days.get(timeZone);
    if (hit && hit.minute === minute) return hit.day;
    const day = localDay(at, timeZone);
    this.days.set(timeZone, { minute, day });
    return day;
  }

  /** toDbDatetime, formatted once per second. */
  dbDatetime(at: Date): string {
    const second = Math.floor(at.getTime() / 1000);
    let s = this.datetimes.get(second);
    if (s === undefined) {
      s = toDbDatetime(at);
      this.datetimes.set(second, s);
    }
    return s;
  }
}
