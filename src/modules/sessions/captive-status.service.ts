/**
 * What the RFC 8908 captive-portal API tells a device about itself: whether it is still captive at
 * a location and, once it is in, how long and how many bytes it has left. A device is recognised by
 * its address: an open RADIUS session from it (Framed-IP-Address), or a grant the portal made to
 * it (controller and grant-URL families). Only addresses of the local network count: behind NAT
 * every guest shares one public address, and one guest's session must not free the others.
 */
import { isIP } from "node:net";
import { fromDbDatetime, toDbDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import { localDay } from "../guests/local-day.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { loadOptions } from "../locations/locations.service.js";
import { grantFor } from "../../gateways/grant-policy.js";

/** The RFC 8908 answer reads no interval; the policy's other settings do not change what it reports. */
const interimInterval = 0;

export type CaptiveStatus = { captive: true } | { captive: false; secondsRemaining?: number; bytesRemaining?: number };

/** Records that the portal let a device in at a location until `seconds` from now. */
export async function recordGrant(ctx: Ctx, g: { locationId: number; clientIp: string; clientMac: string; seconds: number; now?: Date }): Promise<void> {
  if (isIP(g.clientIp) === 0) return;
  const now = g.now ?? new Date();
  await ctx.repos.sessions.insertGrant(ctx.db, {
    location_id: g.locationId,
    client_ip: g.clientIp,
    client_mac: g.clientMac,
    granted_at: toDbDatetime(now),
    expires_at: toDbDatetime(new Date(now.getTime() + g.seconds * 1000)),
  });
}

export async function captiveStatus(ctx: Ctx, location: LocationRow, clientIp: string, isLocal: (ip: string) => boolean, now = new Date()): Promise<CaptiveStatus> {
  if (!isLocal(clientIp)) return { captive: true };
  const { session, grant } = await ctx.repos.sessions.findByAddress(ctx.db, location.id, clientIp, toDbDatetime(now));
  if (session) {
    const options = await loadOptions(ctx, location.id);
    const used =
      options.daily_bandwidth_cap > 0 && session.guest_id !== null
        ? await ctx.repos.sessions.usageOn(ctx.db, session.guest_id, location.id, localDay(now, location.timezone))
        : undefined;
    // The grant policy's answer for this guest now (what an Access-Accept would carry).
    const grant = grantFor({ options, usedToday: used, settings: { interimInterval } });
    const out: CaptiveStatus = { captive: false };
    if (grant.sessionSeconds > 0) {
      const elapsed = Math.max(0, Math.floor((now.getTime() - fromDbDatetime(session.started_at).getTime()) / 1000));
      out.secondsRemaining = Math.max(0, grant.sessionSeconds - elapsed);
    }
    if (grant.remainingBytes !== undefined && used !== undefined) out.bytesRemaining = grant.remainingBytes;
    return out;
  }
  if (grant) {
    return { captive: false, secondsRemaining: Math.max(0, Math.floor((fromDbDatetime(grant.expires_at).getTime() - now.getTime()) / 1000)) };
  }
  return { captive: true };
}
