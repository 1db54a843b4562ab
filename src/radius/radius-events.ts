/**
 * What becomes of each RADIUS request, told to the metrics (every one) and to the log (rejects and
 * drops, at info, with their reason). A flood of bad packets must not flood the log: each reason
 * gets at most LINES_PER_MINUTE lines a minute; the ones held back are counted and reported in one
 * line when the minute is over (flush, called by the server's housekeeping, or the next line).
 */
import type { FastifyBaseLogger } from "fastify";
import type { Metrics, RadiusResult, RadiusType } from "../metrics.js";

export const LINES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

interface Window {
  start: number;
  logged: number;
  suppressed: number;
}

export class RadiusEvents {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly metrics: Metrics,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  count(type: RadiusType, result: RadiusResult): void {
    this.metrics.radius(type, result);
  }

  reject(reason: string, details: Record<string, unknown>): void {
    this.metrics.radius("access", "reject", reason);
    this.tell("reject", reason, details, "radius access rejected");
  }

  drop(type: RadiusType, reason: string, details: Record<string, unknown> = {}): void {
    this.metrics.radius(type, "drop", reason);
    this.tell(`drop ${type}`, reason, { type, ...details }, "radius packet dropped");
  }

  /**
   * A RadSec connection whose TLS handshake was refused (a certificate not of our CA, expired, or no
   * TLS at all): counted with the drops, logged only at debug (scanners of an open port would fill the log).
   */
  handshakeRefused(): void {
    this.metrics.radius("access", "drop", "radsec handshake refused");
  }

  /** Reports the lines held back in windows that are over. */
  flush(): void {
    const now = this.now();
    for (const [key, w] of this.windows) {
      if (now - w.start < WINDOW_MS) continue;
      this.windows.delete(key);
      if (w.suppressed > 0) this.log.info({ event: key.slice(0, key.indexOf("|")), reason: key.slice(key.indexOf("|") + 1), suppressed: w.suppressed }, "radius: similar lines suppressed in the last minute");
    }
  }

  private tell(event: string, reason: string, details: Record<string, unknown>, msg: string): void {
    const key = `${event}|${reason}`;
    const now = this.now();
    let w = this.windows.get(key);
    let suppressed = 0;
    if (w === undefined || now - w.start >= WINDOW_MS) {
      suppressed = w?.suppressed ?? 0;
      w = { start: now, logged: 0, suppressed: 0 };
      this.windows.set(key, w);
    }
    if (w.logged >= LINES_PER_MINUTE) {
      w.suppressed++;
      return;
    }
    w.logged++;
    this.log.info(suppressed > 0 ? { reason, ...details, suppressedBefore: suppressed } : { reason, ...details }, msg);
  }
}
