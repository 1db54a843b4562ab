/**
 * Visits are counted once per guest, location and local day (countVisit is idempotent), yet every
 * Access-Request and Accounting-Request of a guest would ask again. Each RADIUS server remembers
 * what it already counted, so only the first packet of the day writes. Another instance sharing the
 * database counts on its own first packet; countVisit keeps that a no-op.
 */
import { LRUCache } from "lru-cache";

const MAX_ENTRIES = 200_000;

export class VisitMemo {
  /**
   * Forgetting the least recent is harmless: the next packet of that guest asks countVisit again.
   * Made on first use: lru-cache allocates its bound up front, tens of ms of every start.
   */
  private memo: LRUCache<string, true> | undefined;

  private get counted(): LRUCache<string, true> {
    this.memo ??= new LRUCache<string, true>({ max: MAX_ENTRIES });
    return this.memo;
  }

  private key(locationId: number, day: string, guestId: number): string {
    return `${locationId}|${day}|${guestId}`;
  }

  has(locationId: number, day: string, guestId: number): boolean {
    return this.counted.has(this.key(locationId, day, guestId));
  }

  /** Call once the visit is committed. */
  remember(locationId: number, day: string, guestId: number): void {
    this.counted.set(this.key(locationId, day, guestId), true);
  }
}
