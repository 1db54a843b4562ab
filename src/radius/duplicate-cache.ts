/**
 * Retransmission detection (RFC 5080 section 2.2.2): a request with the same source address,
 * source port, identifier and authenticator within the window is the same request. It is never
 * processed twice; once answered, the cached answer is sent again.
 */
import { LRUCache } from "lru-cache";

type Entry = { reply: Buffer | undefined; pending: boolean; expires: number };

export class DuplicateCache {
  /** Bounds memory under a flood of distinct requests: the least recently seen go first. */
  private cache: LRUCache<string, Entry> | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

  /** Made on the first packet: lru-cache allocates its bound up front, which every start paid for. */
  private get entries(): LRUCache<string, Entry> {
    this.cache ??= new LRUCache({ max: this.maxEntries });
    return this.cache;
  }

  /**
   * Identifier, Length and Request Authenticator as 19 latin1 characters (fixed length and last, so
   * unambiguous; a retransmission repeats its Length too).
   */
  static key(address: string, port: number, packet: Buffer): string {
    return `${address}|${port}|${packet.toString("latin1", 1, 20)}`;
  }

  /** "new": process it (now marked pending); "pending": drop it, the first copy is being processed; a Buffer: resend that. */
  begin(key: string, now: number): "new" | "pending" | Buffer {
    const e = this.entries.get(key);
    if (e && e.expires > now) {
      if (e.pending) return "pending";
      if (e.reply) return e.reply;
    }
    this.entries.set(key, { reply: undefined, pending: true, expires: now + this.windowMs });
    return "new";
  }

  /** Records the answer; without one (dropped, or failed) the request is forgotten so a resend is processed afresh. */
  finish(key: string, reply: Buffer | undefined, now: number): void {
    if (!reply) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, { reply, pending: false, expires: now + this.windowMs });
  }

  /** Frees the answers whose window has passed. */
  sweep(now: number): void {
    if (!this.cache) return;
    const expired: string[] = [];
    for (const [key, e] of this.cache.entries()) if (e.expires <= now) expired.push(key);
    for (const key of expired) this.entries.delete(key);
  }

  get size(): number {
    return this.cache?.size ?? 0;
  }
}
