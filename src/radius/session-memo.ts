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

/** Sessions of a large site's busiest hour, then the least recently used go (they are read again). */
const MAX_ENTRIES = 100_000;

export class SessionMemo {
  /** Kept in the order of last use: the oldest go first when the bound is reached. */
  private readonly sessions = new Map<string, KnownSession>();

  static key(deviceId: number, acctSessionId: string): string {
    return `${deviceId}|${acctSessionId}`;
  }

  get(key: string): KnownSession | undefined {
    return this.sessions.get(key);
  }

  /** Call once the write that left the session so is committed; undefined: forget it (closed). */
  set(key: string, session: KnownSession | undefined): void {
    this.sessions.delete(key);
    if (!session) return;
    if (this.sessions.size >= MAX_ENTRIES) this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(key, session);
  }
}
