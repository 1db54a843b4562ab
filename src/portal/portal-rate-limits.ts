/**
 * The portal's request limits, keyed only on what a caller cannot choose: its network address
 * (clientAddressKey: IPv4, or IPv6 by its /64) and the location whose page it posts to. The client
 * MAC and the page state come from the gateway's unsigned redirect and are never part of a key.
 * What a text costs is bounded further by the database-counted caps in sms-login.service.ts (per
 * number, per location and day). Made per app by the portal plugin, on the app's rate-limit
 * plugin (src/http/rate-limit.ts), like the API's limit.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { clientAddressKey, minuteLimit } from "../http/rate-limit.js";
import { portalErrors } from "./portal-errors.js";

export interface PortalRateLimitSettings {
  /** Login requests per client address per minute; 0 turns the limit off. */
  loginPerMinute: number;
  /** Texts per client address, and per location, per minute; 0 turns the limit off. */
  smsPerMinute: number;
  /** Voucher codes tried per client address per minute; 0 turns the limit off. */
  voucherPerMinute: number;
}

export interface PortalRateLimits {
  /** Every login request counts (failed, forged and foreign ones too), whatever MAC or state it names. */
  loginAttempt(request: FastifyRequest): Promise<void>;
  /** A text about to be sent. An address over its limit stops here, before it uses up the location's. */
  smsSend(request: FastifyRequest, locationId: number): Promise<void>;
  /** A voucher code about to be checked: every try counts, right or wrong, so a guesser learns nothing past the limit. */
  voucherTry(request: FastifyRequest): Promise<void>;
}

export function createPortalRateLimits(app: FastifyInstance, settings: PortalRateLimitSettings): PortalRateLimits {
  const logins = minuteLimit(app, "portal-login", settings.loginPerMinute);
  const texts = minuteLimit(app, "portal-sms", settings.smsPerMinute);
  const vouchers = minuteLimit(app, "portal-voucher", settings.voucherPerMinute);
  return {
    async loginAttempt(request) {
      const wait = await logins(request, clientAddressKey(request.ip));
      if (wait !== undefined) throw portalErrors.rateLimited(wait);
    },
    async smsSend(request, locationId) {
      const fromAddress = await texts(request, `address:${clientAddressKey(request.ip)}`);
      if (fromAddress !== undefined) throw portalErrors.smsFromNetwork(fromAddress);
      const atLocation = await texts(request, `location:${locationId}`);
      if (atLocation !== undefined) throw portalErrors.smsAtLocation(atLocation);
    },
    async voucherTry(request) {
      const wait = await vouchers(request, clientAddressKey(request.ip));
      if (wait !== undefined) throw portalErrors.voucherTries(wait);
    },
  };
}
