/**
 * "Now" as the database stores it, and the local day in a location's time zone, formatted once
 * per second and per minute instead of once per packet (every packet needs both). Each RADIUS
 * server has its own.
 */
import { toDbDatetime } from "../db/time.js";
import { localDay } from "../modules/guests/local-day.js";

const DATETIMES_MAX = 16;

export class PacketTime {
  /** Per time zone: the minute last formatted and its day. */
  private readonly days = new Map<string, { minute: number; day: string }>();
  /**
   * "now" and "now - N days" alternate; a few seconds' worth is enough, so it is emptied when it
   * holds more (a Map: it is asked on every packet, without an LRU's bookkeeping).
   */
  private readonly datetimes = new Map<number, string>();

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
      if (this.datetimes.size >= DATETIMES_MAX) this.datetimes.clear();
      this.datetimes.set(second, s);
    }
    return s;
  }
}
