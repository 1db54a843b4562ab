/**
 * Retransmission detection (RFC 5080 section 2.2.2): a request with the same source address,
 * source port, identifier and authenticator within the window is the same request. It is never
 * processed twice; once answered, the cached answer is sent again.
 */
type Entry = { reply: Buffer | undefined; pending: boolean; expires: number };

export class DuplicateCache {
  /**
   * In the order requests first arrived, which is nearly the order they expire in: the oldest go
   * first when the bound is reached (a flood of distinct requests), and a sweep stops at the first
   * live one. A Map kept in arrival order costs a fraction of an LRU's bookkeeping per packet, and
   * a request is looked up only by its retransmissions.
   */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

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
    if (e) {
      if (e.expires > now) {
        if (e.pending) return "pending";
        if (e.reply) return e.reply;
      }
      // The same identifier and authenticator again after the window: a new request, at the back.
      this.entries.delete(key);
    } else if (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
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
    const e = this.entries.get(key);
    if (!e) return; // pushed out by the bound while it was processed: its resend is processed afresh
    e.reply = reply;
    e.pending = false;
    e.expires = now + this.windowMs;
  }

  /** Frees the answers whose window has passed, oldest first, up to the first that is still live. */
  sweep(now: number): void {
    for (const [key, e] of this.entries) {
      if (e.expires > now) break;
      this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
