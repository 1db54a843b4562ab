/**
 * What recording a login takes (the portal's, RADIUS's and the demo generator's logins), and the
 * rules of what a login writes: `planLogin` turns the input into the rows, the counters and the
 * guest.login event, once, for both databases. The writer (recordLogin in
 * guest-activity.service.ts) only carries the plan out in its database's statements.
 */
import type { RawBuilder } from "kysely";
import type { DB } from "../../db/database.js";
import { toDbDatetime } from "../../db/time.js";
import { localDayHour } from "./local-day.js";
import type { LoginType } from "./login-types.js";
import { type LoginConsent, marketingDecision } from "./marketing-consent.js";
import { parseUserAgent } from "./user-agent.js";

export type { LoginConsent } from "./marketing-consent.js";

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

/**
 * A write of another module that must commit with the login, for the login's guest: the portal's
 * one-time RADIUS credential (made by src/radius/portal-credentials.ts, whose table it is). The
 * login writer runs it in the login's statement or transaction and knows nothing of its table.
 */
export interface LoginCompanion {
  /** Names the statement's text: companions of one shape give the same `cte` for the same value names. */
  shape: string;
  values: Record<string, unknown>;
  /** PostgreSQL: a data-modifying CTE, `name as (...)`, writing for the guest of CTE `g` (`g.id`), its values read from `p` by name. */
  cte(p: Record<string, never>): RawBuilder<unknown>;
  /** Otherwise: the write for the guest, in the login's transaction. */
  write(trx: DB, guestId: number): Promise<void>;
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
  /**
   * The guest the login is of when it is known by another login type (a Passpoint login is of the
   * guest who logged in at the portal by e-mail): its social_network and network_user_id.
   */
  guestOf?: { loginType: string; identity: string };
  profile: GuestProfileInput;
  /** Canonical client MAC (upper case, colons), or "" when the gateway did not give one. */
  clientMac: string;
  userAgent: string;
  at?: Date;
  /** What the page showed and the guest ticked (none: no consent step; nothing accepted, no marketing choice). */
  consent?: LoginConsent;
  /** The voucher the guest logged in with. */
  voucherId?: number | null;
  /** A write that commits with the login (the RADIUS credential the gateway logs the guest on with). */
  companion?: LoginCompanion;
}

const PROFILE_LIMITS: Record<keyof GuestProfileInput, number> = {
  email: 254,
  full_name: 255,
  username: 255,
  gender: 32,
  phone_number: 32,
  birthdate: 10,
  age: 16,
  locale: 32,
  picture_url: 2048,
};

/** Only the fields given (non-empty), cut to their column sizes: a login never blanks a known field. */
function profileUpdate(p: GuestProfileInput): GuestProfileInput {
  const out: GuestProfileInput = {};
  for (const [k, max] of Object.entries(PROFILE_LIMITS) as [keyof GuestProfileInput, number][]) {
    const v = p[k];
    if (typeof v === "string" && v.trim() !== "") out[k] = v.trim().slice(0, max);
  }
  return out;
}

/** The guest's columns a login sets, on the new row and on the known one alike: its profile fields and, when it made one, the marketing choice. */
export type GuestSet = GuestProfileInput & { marketing_opt_in?: number; marketing_opt_in_at?: string; marketing_version?: string; updated_at: string };

/** The login's row but for its guest. */
export interface LoginRowValues {
  account_id: number;
  location_id: number;
  campaign_id: number;
  device_id: number | null;
  login_type: string;
  client_mac: string;
  user_agent: string;
  browser_name: string;
  os_name: string;
  os_version: string;
  device_type: string;
  device_brand: string;
  logged_at: string;
  local_day: string;
  terms_accepted: number;
  marketing_opt_in: number;
  terms_version: string;
  marketing_version: string;
  voucher_id: number | null;
}

/** The daily aggregates a login adds one to, and what each waits for. */
export const LOGIN_COUNTERS = [
  // A new guest of the location, on the day of its first login there ("new against returning").
  { table: "daily_new_guests", keys: ["location_id", "day"], when: "first-here" },
  { table: "daily_logins", keys: ["location_id", "day", "login_type"], when: "always" },
  { table: "hourly_logins", keys: ["location_id", "day", "hour"], when: "always" },
  // A visitor of the location on that local day, once per day.
  { table: "daily_visits", keys: ["location_id", "day"], when: "first-visit-today" },
] as const;

export type CounterKey = (typeof LOGIN_COUNTERS)[number]["keys"][number];

/**
 * The plan's columns and their PostgreSQL types (its one-statement login casts every parameter):
 * the login row's, the counters' keys, the guest's key and its first login at a location.
 */
export type PgType = "integer" | "varchar";
export const LOGIN_TYPES: Record<keyof LoginRowValues, PgType> = {
  account_id: "integer",
  location_id: "integer",
  campaign_id: "integer",
  device_id: "integer",
  login_type: "varchar",
  client_mac: "varchar",
  user_agent: "varchar",
  browser_name: "varchar",
  os_name: "varchar",
  os_version: "varchar",
  device_type: "varchar",
  device_brand: "varchar",
  logged_at: "varchar",
  local_day: "varchar",
  terms_accepted: "integer",
  marketing_opt_in: "integer",
  terms_version: "varchar",
  marketing_version: "varchar",
  voucher_id: "integer",
};
export const COUNTER_TYPES: Record<CounterKey, PgType> = { location_id: "integer", day: "varchar", login_type: "varchar", hour: "integer" };
export const LOGIN_COLUMNS = Object.keys(LOGIN_TYPES) as (keyof LoginRowValues)[];
export const COUNTER_KEYS = Object.keys(COUNTER_TYPES) as CounterKey[];
export const GUEST_KEY = ["account_id", "social_network", "network_user_id"] as const;
export const FIRST_HERE = ["location_id", "campaign_id", "first_login_at"] as const;

export interface LoginPlan {
  at: Date;
  now: string;
  /** The guest, found by (account, login type, identity). */
  guestKey: { account_id: number; social_network: string; network_user_id: string };
  guestSet: GuestSet;
  login: LoginRowValues;
  /** The guest's first login at the location (guest_locations), written only the first time. */
  firstHere: { location_id: number; campaign_id: number; first_login_at: string };
  /** The guest's MAC in the account (guest_macs), when the gateway gave one. */
  mac: string;
  /** The values of LOGIN_COUNTERS' keys. */
  counterKeys: Record<CounterKey, string | number>;
  /** guest.login's data, without the guest and login ids (added where they are known). */
  event: Record<string, unknown>;
}

/** Everything a login writes, decided once: the writer of each database carries it out as it is. */
export function planLogin(input: LoginInput): LoginPlan {
  const at = input.at ?? new Date();
  const now = toDbDatetime(at);
  const { day, hour } = localDayHour(at, input.timezone);
  const profile = profileUpdate(input.profile);
  const agent = parseUserAgent(input.userAgent);
  const c = input.consent;
  const marketing = marketingDecision(c);
  const guestSet: GuestSet = { ...profile, updated_at: now };
  if (marketing.decided) Object.assign(guestSet, { marketing_opt_in: marketing.optedIn ? 1 : 0, marketing_opt_in_at: now, marketing_version: marketing.version });
  return {
    at,
    now,
    guestKey: {
      account_id: input.accountId,
      social_network: input.guestOf?.loginType ?? input.loginType,
      network_user_id: (input.guestOf?.identity ?? input.identity).trim().toLowerCase().slice(0, 255),
    },
    guestSet,
    login: {
      account_id: input.accountId,
      location_id: input.locationId,
      campaign_id: input.campaignId,
      device_id: input.deviceId,
      login_type: input.loginType,
      client_mac: input.clientMac,
      user_agent: input.userAgent.slice(0, 1024),
      ...agent,
      logged_at: now,
      local_day: day,
      terms_accepted: c?.termsAccepted ? 1 : 0,
      marketing_opt_in: marketing.optedIn ? 1 : 0,
      terms_version: (c?.termsVersion ?? "").slice(0, 64),
      marketing_version: marketing.version,
      voucher_id: input.voucherId ?? null,
    },
    firstHere: { location_id: input.locationId, campaign_id: input.campaignId, first_login_at: now },
    mac: input.clientMac,
    counterKeys: { location_id: input.locationId, day, login_type: input.loginType, hour },
    event: loginEventData(input, profile, marketing.optedIn, now),
  };
}

/** Personal fields only for a login that opted the guest in to marketing (docs/guest-data.md). */
function loginEventData(input: LoginInput, profile: GuestProfileInput, optedIn: boolean, loggedAt: string): Record<string, unknown> {
  const data: Record<string, unknown> = {
    location_id: input.locationId,
    campaign_id: input.campaignId,
    device_id: input.deviceId,
    login_type: input.loginType,
    logged_at: loggedAt,
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
