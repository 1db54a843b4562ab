/**
 * What this server last committed of each open session it accounted (its row id, owner and
 * counters), so that an Interim-Update goes straight to the compare-and-set of its counters
 * instead of reading the row first. The memo is only a guess: the compare-and-set checks the
 * counters, that the session is open and its guest (erasure moves it), and a session another
 * writer touched (another instance, housekeeping, a Disconnect, the CLI) fails it and is read
 * again. Entries are written only after their transaction committed, or from rows read (committed
 * state), so a rolled-back batch leaves nothing behind. Each RADIUS server has its own.
 */
import type { SessionCounters } from "./radius-statements.js";

/** The fields of a session's row the accounting of a later packet relies on. */
export interface KnownSession extends SessionCounters {
  id: number;
  guest_id: number | null;
  location_id: number | null;
  framed_ip: string | null;
}

/** The fields KnownSession keeps of a session's row as read (counters are bigint: strings from PostgreSQL). */
export function knownSession(row: {
  id: number;
  guest_id: number | null;
  location_id: number | null;
  framed_ip: string | null;
  session_time: number | string;
  input_octets: number | string;
  output_octets: number | string;
}): KnownSession {
  return {
    id: row.id,
    guest_id: row.guest_id,
    location_id: row.location_id,
    framed_ip: row.framed_ip,
    session_time: Number(row.session_time),
    input_octets: Number(row.input_octets),
    output_octets: Number(row.output_octets),
  };
}

/** One remembered session and when it was last written (ms, the memo's clock). */
interface Entry {
  session: KnownSession;
  at: number;
}

/** Stale entries dropped per write at most: the sweep stays a constant cost per packet. */
const SWEEP_PER_SET = 2;

/**
 * Bounded by `maxEntries` (RADIUS_SESSION_MEMO_ENTRIES). Entries are kept in the order they were
 * last written, so the oldest is always first:
 * - an entry not written for `staleMs` (the time after which housekeeping closes a session that
 *   stopped reporting) is dropped at the next writes, so sessions that ended without a Stop do not
 *   pile up on a quiet server;
 * - when the memo is full of sessions that still report, a new session is not taken in (it is read
 *   from the database at its next packet, as without a memo). Dropping the oldest instead, as a
 *   least-recently-used cache does, keeps nothing once more sessions are open than the bound:
 *   sessions report in turn, each at its interval, so every entry would be dropped just before its
 *   session's next packet. Refusing keeps `maxEntries` of them known and the rest read.
 */
export class SessionMemo {
  private readonly sessions = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly staleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  static key(deviceId: number, acctSessionId: string): string {
    return `${deviceId}|${acctSessionId}`;
  }

  get size(): number {
    return this.sessions.size;
  }

  get(key: string): KnownSession | undefined {
    return this.sessions.get(key)?.session;
  }

  /** Call once the write that left the session so is committed; undefined: forget it (closed). */
  set(key: string, session: KnownSession | undefined): void {
    this.sessions.delete(key);
    if (!session) return;
    const now = this.now();
    for (let n = 0; n < SWEEP_PER_SET; n++) {
      const oldest = this.sessions.entries().next().value as [string, Entry] | undefined;
      if (!oldest || now - oldest[1].at < this.staleMs) break;
      this.sessions.delete(oldest[0]);
    }
    if (this.sessions.size >= this.maxEntries) return;
    this.sessions.set(key, { session, at: now });
  }
}
