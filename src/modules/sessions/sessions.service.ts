/**
 * Who is online now, from RADIUS accounting. A session is live while its gateway has not sent a
 * Stop and has sent an accounting packet within the last LIVE_INTERVALS accounting intervals (the
 * Acct-Interim-Interval we hand out): past that the gateway lost it (power cut, roam, missed Stop),
 * and the session no longer counts as online. Housekeeping closes such sessions later for good
 * (RADIUS_STALE_SESSION_HOURS); their counted totals stay as they were.
 */
import { toDbDatetime } from "../../db/time.js";
import type { Config } from "../../config.js";
import type { CoaOutcome, Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { OwnedSessionRow } from "./sessions.repository.js";
import { LIVE_INTERVALS } from "./sessions.schemas.js";

export interface LiveSessionQuery {
  locations: LocationRow[];
  interimIntervalSeconds: number;
  afterId: number;
  limit: number;
  now?: Date;
}

export async function listLiveSessions(ctx: Ctx, q: LiveSessionQuery) {
  const now = q.now ?? new Date();
  const heardSince = toDbDatetime(new Date(now.getTime() - LIVE_INTERVALS * q.interimIntervalSeconds * 1000));
  const rows = await ctx.repos.sessions.listLive(
    ctx.db,
    q.locations.map((l) => l.id),
    heardSince,
    q.afterId,
    q.limit + 1,
  );
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((r) => ({
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
    })),
    next_after_session_id: rows.length > q.limit ? page[page.length - 1].id : null,
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
