/**
 * Who is online now, from RADIUS accounting. A session is live while its gateway has not sent a
 * Stop and has sent an accounting packet within the last LIVE_INTERVALS accounting intervals (the
 * Acct-Interim-Interval we hand out): past that the gateway lost it (power cut, roam, missed Stop),
 * and the session no longer counts as online. Housekeeping closes such sessions later for good
 * (RADIUS_STALE_SESSION_HOURS); their counted totals stay as they were.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { toDbDatetime } from "../../db/time.js";
import type { Config } from "../../config.js";
import type { CoaOutcome, Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { LiveSessionRow, OwnedSessionRow } from "./sessions.repository.js";
import { LIVE_INTERVALS } from "./sessions.schemas.js";

export interface LiveSessionQuery {
  locations: LocationRow[];
  interimIntervalSeconds: number;
  afterId: number;
  limit: number;
  now?: Date;
}

/** A live session as GET /api/session-list answers it. */
export interface LiveSession {
  session_id: number;
  location_id: number;
  social_user_id: number;
  guest_name: string;
  client_mac: string;
  ip_address: string;
  device_id: number;
  device_name: string;
  device_mac: string;
  started_at: string;
  last_update: string;
  duration: number;
  bytes_in: number;
  bytes_out: number;
}

/**
 * Sessions read per turn of the event loop. A page holds up to 5,000 sessions. Read, mapped and
 * answered at once, a page of 1,000 held the one thread for about 18 ms on SQLite (a synchronous
 * read), and every RADIUS packet that came meanwhile waited that long (docs/operations.md, "What
 * holds RADIUS back outside the burst"). In chunks, a packet waits for one chunk at most: about
 * 2 ms for 500 sessions read and serialised on SQLite here.
 */
export const LIVE_SESSION_CHUNK = 500;

/**
 * The page of live sessions after `afterId`, handed to `each` a chunk at a time in session order,
 * the event loop free between chunks. Answers the cursor of the next page (null on the last).
 * Chunks are separate reads, not one snapshot: a session that starts or stops meanwhile is on the
 * page or not, as it would be on the next page anyway.
 */
export async function listLiveSessions(ctx: Ctx, q: LiveSessionQuery, each: (chunk: LiveSession[]) => void): Promise<{ nextAfterId: number | null }> {
  const now = q.now ?? new Date();
  const heardSince = toDbDatetime(new Date(now.getTime() - LIVE_INTERVALS * q.interimIntervalSeconds * 1000));
  const locationIds = q.locations.map((l) => l.id);
  let after = q.afterId;
  let left = q.limit;
  for (;;) {
    // The last chunk takes one row past the page: it tells whether there is a next page.
    const want = left <= LIVE_SESSION_CHUNK ? left + 1 : LIVE_SESSION_CHUNK;
    const rows = await ctx.repos.sessions.listLive(ctx.db, locationIds, heardSince, after, want);
    const page = rows.length > left ? rows.slice(0, left) : rows;
    if (page.length > 0) each(page.map(toLiveSession));
    left -= page.length;
    if (rows.length < want) return { nextAfterId: null };
    after = page[page.length - 1].id;
    if (left === 0) return { nextAfterId: after };
    await yieldToEventLoop();
  }
}

function toLiveSession(r: LiveSessionRow): LiveSession {
  return {
    session_id: r.id,
    location_id: r.location_id,
    social_user_id: r.guest_id ?? 0,
    guest_name: r.guest_name || r.guest_email || "",
    client_mac: r.client_mac,
    ip_address: r.framed_ip ?? "",
    device_id: r.device_id,
    device_name: r.device_name,
    device_mac: r.device_mac,
    started_at: r.started_at,
    last_update: r.updated_at,
    duration: Number(r.session_time),
    bytes_in: Number(r.input_octets),
    bytes_out: Number(r.output_octets),
  };
}

/**
 * An operator ends a session (POST /api/disconnect-session). A session we think closed is asked
 * too: a gateway that lost its Stop may still hold it (it NAKs with 503 when it does not).
 */
export async function disconnectSession(ctx: Ctx, session: OwnedSessionRow, config: Readonly<Config>): Promise<CoaOutcome> {
  if (!ctx.sessionControl) throw new Error("no session control in this context");
  return ctx.sessionControl.disconnect(session.id, "operator", config);
}
