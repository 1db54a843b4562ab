/**
 * Who is online now, from RADIUS accounting. A session is live while its gateway has not sent a
 * Stop and has sent an accounting packet within the last LIVE_INTERVALS accounting intervals (the
 * Acct-Interim-Interval we hand out): past that the gateway lost it (power cut, roam, missed Stop),
 * and the session no longer counts as online. Housekeeping closes such sessions later for good
 * (RADIUS_STALE_SESSION_HOURS); their counted totals stay as they were.
 */
import type { Static } from "@sinclair/typebox";
import { toDbDatetime } from "../../db/time.js";
import type { Config } from "../../config.js";
import type { CoaOutcome, Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { LiveSessionRow, OwnedSessionRow } from "./sessions.repository.js";
import { LIVE_INTERVALS, type LiveSession as LiveSessionSchema } from "./sessions.schemas.js";

export interface LiveSessionQuery {
  locations: LocationRow[];
  interimIntervalSeconds: number;
  afterId: number;
  limit: number;
  now?: Date;
}

/** A live session as GET /api/session-list answers it. */
export type LiveSession = Static<typeof LiveSessionSchema>;

/**
 * The page of live sessions after `afterId`, handed to `each` a chunk at a time in session order
 * (see the repository's readLive: on SQLite the event loop runs between chunks). Answers the
 * cursor of the next page (null on the last). Chunks are separate reads, not one snapshot: a
 * session that starts or stops meanwhile is on the page or not, as it would be on the next page.
 */
export async function listLiveSessions(ctx: Ctx, q: LiveSessionQuery, each: (chunk: LiveSession[]) => void): Promise<{ nextAfterId: number | null }> {
  const now = q.now ?? new Date();
  const heardSince = toDbDatetime(new Date(now.getTime() - LIVE_INTERVALS * q.interimIntervalSeconds * 1000));
  let left = q.limit;
  let lastId = 0;
  let more = false;
  // One row past the page tells whether there is a next page.
  await ctx.repos.sessions.readLive(ctx.db, q.locations.map((l) => l.id), heardSince, q.afterId, q.limit + 1, (rows) => {
    const page = rows.length > left ? rows.slice(0, left) : rows;
    more ||= page.length < rows.length;
    if (page.length === 0) return;
    left -= page.length;
    lastId = page[page.length - 1].id;
    each(page.map(toLiveSession));
  });
  return { nextAfterId: more ? lastId : null };
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
