/**
 * A returning guest behind a new MAC address (a private, per-network or rotating address): the
 * page view finds the guest by the device cookie (device-cookie.ts) and offers a one-tap
 * reconnect; the login that follows is recorded as that same guest (same login type and
 * identity, so no new guest and no new-guest count), which links the new MAC to them (guest_macs).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { GuestRow } from "../modules/guests/guests.repository.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import type { PortalDeps } from "./portal-deps.js";
import { readDeviceCookie, setDeviceCookie } from "./device-cookie.js";

/**
 * The guest this browser is at the location, when the cookie names one of the location's account;
 * undefined at once, without a promise to wait for, when it has no such cookie (most page views).
 */
export function cookieGuest(request: FastifyRequest, deps: PortalDeps, location: LocationRow): Promise<GuestRow | undefined> | undefined {
  const guestId = readDeviceCookie(request, deps.signer, location.id);
  if (guestId === undefined) return undefined;
  return deps.ctx.repos.guests.findOwned(deps.ctx.db, location.account_id, [guestId]).then(([guest]) => guest);
}


/** What a completed login calls with its guest: the device cookie for the location, renewed for a year. */
export function rememberDevice(reply: FastifyReply, deps: PortalDeps, location: LocationRow): (guestId: number) => void {
  return (guestId) => setDeviceCookie(reply, deps.signer, deps.config.publicUrl, location.id, guestId);
}
