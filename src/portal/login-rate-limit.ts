/**
 * Login attempts per client per minute (config.portalLoginRateLimitPerMinute, 0 = off). A client
 * is its IP address plus the MAC its gateway reported: guests behind one venue's NAT share an IP,
 * so the IP alone would throttle the whole venue. Kept in memory, per process.
 */
export class LoginRateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly maxClients = 100_000,
  ) {}

  /** Seconds to wait, or 0 when the attempt may go ahead. */
  take(ip: string, clientMac: string, now = Date.now()): number {
    if (this.perMinute <= 0) return 0;
    const key = `${ip}|${clientMac}`;
    const w = this.windows.get(key);
    if (!w || now - w.start >= 60_000) {
      if (this.windows.size >= this.maxClients) this.prune(now);
      this.windows.set(key, { start: now, count: 1 });
      return 0;
    }
    w.count += 1;
    return w.count > this.perMinute ? Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000)) : 0;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(k);
    // Still full of live windows: an address sweep; forgetting them is safer than growing without bound.
    if (this.windows.size >= this.maxClients) this.windows.clear();
  }
}
