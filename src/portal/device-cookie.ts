/**
 * Recognising a returning browser when its device shows up with a new MAC address (iOS, Android
 * and Windows give each network a private address, and rotate it): a long-lived cookie per
 * location, signed (portal-signer.ts, purpose "device"), HttpOnly, set when a login completes. It
 * names the guest; on a later page view with a MAC the guest is not known by, the portal offers
 * a one-tap reconnect instead of the form, and the login that follows links the new MAC to the
 * guest (guest_macs) and counts the same guest again, not a new one. docs/sessions.md says what
 * works on which system.
 */
import { clearCookie, cookieOf, setCookie } from "../http/cookies.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PortalSigner } from "./portal-signer.js";
import { DAY_SECONDS } from "../durations.js";

/** A year: private addresses rotate, the browser's cookie jar (usually) does not. */
export const DEVICE_COOKIE_TTL_SECONDS = 365 * DAY_SECONDS;

export interface DeviceCookie {
  v: 1;
  /** Location it was set at (also in the cookie's name). */
  loc: number;
  /** The guest. */
  g: number;
  /** Expiry, epoch seconds. */
  exp: number;
}

export function deviceCookieName(locationId: number): string {
  return `gwp_dev_${locationId}`;
}

export function setDeviceCookie(reply: FastifyReply, signer: PortalSigner, publicUrl: string, locationId: number, guestId: number, now = Date.now()): void {
  const value: DeviceCookie = { v: 1, loc: locationId, g: guestId, exp: Math.floor(now / 1000) + DEVICE_COOKIE_TTL_SECONDS };
  setCookie(reply, deviceCookieName(locationId), signer.seal("device", value), {
    path: "/portal/",
    secure: publicUrl.startsWith("https://"),
    maxAge: DEVICE_COOKIE_TTL_SECONDS,
  });
}

export function clearDeviceCookie(reply: FastifyReply, locationId: number): void {
  clearCookie(reply, deviceCookieName(locationId), "/portal/");
}

/** The guest this browser logged in as at the location, or undefined (none, forged, expired, another location's). */
export function readDeviceCookie(request: FastifyRequest, signer: PortalSigner, locationId: number, now = Date.now()): number | undefined {
  const c = signer.open<DeviceCookie>("device", cookieOf(request, deviceCookieName(locationId)));
  if (c?.v !== 1 || c.loc !== locationId || typeof c.g !== "number" || !Number.isSafeInteger(c.g) || c.g <= 0) return undefined;
  if (typeof c.exp !== "number" || c.exp < now / 1000) return undefined;
  return c.g;
}
