/**
 * What recording a login takes (the portal's, RADIUS's and the demo generator's logins), and what
 * follows from it alone: its consent columns and its guest.login event. Kept apart from the writes
 * (guest-activity.service.ts, postgres-login.ts), which both read it.
 */
import type { Insertable } from "kysely";
import type { PortalCredentialsTable } from "../../db/schema.js";
import { toDbDatetime } from "../../db/time.js";
import type { LoginType } from "./login-types.js";

export interface GuestProfileInput {
  email?: string;
  full_name?: string;
  username?: string;
  gender?: string;
  phone_number?: string;
  birthdate?: string;
  age?: string;
  locale?: string;
  picture_url?: string;
}

export interface LoginInput {
  accountId: number;
  locationId: number;
  /** The location's time zone: the login counts on that local day. */
  timezone: string;
  campaignId: number;
  deviceId: number | null;
  loginType: LoginType;
  /** The guest's identity within the login type: the network's user id, or the e-mail / phone for forms. */
  identity: string;
  profile: GuestProfileInput;
  /** Canonical client MAC (upper case, colons), or "" when the gateway did not give one. */
  clientMac: string;
  userAgent: string;
  at?: Date;
  /**
   * A one-time RADIUS credential for this guest (src/radius/portal-credentials.ts), stored with the
   * login: one commit, and a login that answered always has its credential.
   */
  credential?: Omit<Insertable<PortalCredentialsTable>, "guest_id">;
  /** What the guest accepted on the page (none: nothing was asked, all 0 and ""). */
  consent?: LoginConsent;
  /** The voucher the guest logged in with. */
  voucherId?: number | null;
  /**
   * The guest opted in to marketing at this login, for callers without a consent step of their own
   * (imports); the portal's logins say it through `consent`. Otherwise the guest counts as not opted
   * in, and guest.login webhooks carry ids only.
   */
  marketingOptIn?: boolean;
}

/**
 * The guest.login event's data, without the guest and login ids (added where they are known).
 * Personal fields only for a login with a marketing opt-in (docs/guest-data.md).
 */
export function loginEventData(input: LoginInput, profile: GuestProfileInput, at: Date): Record<string, unknown> {
  const optedIn = input.marketingOptIn === true || (input.consent?.marketingAsked === true && input.consent.marketingOptIn);
  const data: Record<string, unknown> = {
    location_id: input.locationId,
    campaign_id: input.campaignId,
    device_id: input.deviceId,
    login_type: input.loginType,
    logged_at: toDbDatetime(at),
    marketing_opt_in: optedIn,
  };
  if (optedIn) {
    Object.assign(data, {
      email: profile.email ?? "",
      full_name: profile.full_name ?? "",
      phone_number: profile.phone_number ?? "",
      client_mac: input.clientMac,
    });
  }
  return data;
}

export interface LoginConsent {
  termsAccepted: boolean;
  /** Whether the page offered the marketing opt-in: only then is the guest's latest choice replaced. */
  marketingAsked: boolean;
  marketingOptIn: boolean;
  termsVersion: string;
  marketingVersion: string;
}

/** The login's consent columns, and the guest's when the page asked about marketing. */
export function consentColumns(c: LoginConsent | undefined, now: string) {
  const login = {
    terms_accepted: c?.termsAccepted ? 1 : 0,
    marketing_opt_in: c?.marketingAsked && c.marketingOptIn ? 1 : 0,
    terms_version: (c?.termsVersion ?? "").slice(0, 64),
    marketing_version: c?.marketingAsked ? c.marketingVersion.slice(0, 64) : "",
  };
  const guest = c?.marketingAsked
    ? { marketing_opt_in: login.marketing_opt_in, marketing_opt_in_at: now, marketing_version: login.marketing_version }
    : undefined;
  return { login, guest };
}

export type ConsentColumns = ReturnType<typeof consentColumns>;
