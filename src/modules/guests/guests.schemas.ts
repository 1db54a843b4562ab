import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";
import { LOGIN_TYPE_CODES } from "./login-types.js";

const Success = Type.Literal("success");

/** At most this many ids in location_ids (social-user-list) and user_ids (get-social-user-profile). */
export const MAX_GUEST_IDS = 100;
/** social-user-list: to_date at most this many days after from_date. */
export const GUEST_LIST_MAX_DAYS = 90;

export const SocialNetwork = Type.Union(
  LOGIN_TYPE_CODES.map((c) => Type.Literal(c)),
  {
    description: "Login type: FBUser, Cuser, IGuser, TWuser, Twilio, FWuser, Muser (and LIuser for LinkedIn, Vuser for vouchers, PPuser for a device that joined with its Passpoint credential).",
    "x-error": "oneOf",
    "x-values": LOGIN_TYPE_CODES,
  },
);

export const SocialUserListParams = Type.Object({
  identifier: F.identifier(),
  location_ids: F.idList(`One location id or up to ${MAX_GUEST_IDS} comma-separated ids (deleted locations allowed).`),
  campaign_id: Type.Optional(F.id("Only guests who logged in through this campaign in the range.")),
  from_date: F.date("First day (in each location's own time zone)."),
  to_date: F.date(`Last day, at most ${GUEST_LIST_MAX_DAYS} days after from_date.`),
  social_network: Type.Optional(SocialNetwork),
});

/** social-user-export: to_date at most this many days after from_date (a year, leap years included). */
export const GUEST_EXPORT_MAX_DAYS = 366;

export const SocialUserExportParams = Type.Object({
  identifier: F.identifier(),
  location_ids: F.idList(`One location id or up to ${MAX_GUEST_IDS} comma-separated ids (deleted locations allowed).`),
  campaign_id: Type.Optional(F.id("Only guests who logged in through this campaign in the range.")),
  from_date: F.date("First day (in each location's own time zone)."),
  to_date: F.date(`Last day, at most ${GUEST_EXPORT_MAX_DAYS} days after from_date.`),
  social_network: Type.Optional(SocialNetwork),
  format: Type.Union([Type.Literal("csv")], {
    description: "The file format: csv (the only one).",
    "x-error": "oneOf",
    "x-values": ["csv"],
  }),
});

/** The export's answer: a CSV file (documented; the stream is not serialised by a schema). */
export const SocialUserExportResponse = Type.Unsafe<import("node:stream").Readable>({
  type: "string",
  format: "binary",
  description:
    "text/csv; charset=utf-8, RFC 4180 (CRLF), header row: social_user_id, name, email, phone, mac, location_id, location, " +
    "login_type, first_seen_utc, last_seen_utc, visits, data_used_bytes.",
});

export const SocialUserEntry = Type.Object({
  social_user_id: Type.Integer(),
  location_id: Type.Integer(),
  campaign_id: Type.Integer({ description: "Campaign of the guest's first login at this location." }),
  added_datetime: Type.String({ description: "The guest's first login at this location (UTC)." }),
});

export const SocialUserListResponse = Type.Object({ status: Success, data: Type.Array(SocialUserEntry) });

export const SocialUserProfileParams = Type.Object({
  identifier: F.identifier(),
  user_ids: F.idList(`One social_user_id or up to ${MAX_GUEST_IDS} comma-separated ids.`),
});

const Str = Type.String();
const Int = Type.Integer();
const Datetime = (description: string) => Type.String({ description: `${description} UTC, or "" when none.` });

/** Every key of the specification's profile entry, typed as it lists them; the rest are strings. */
export const SocialUserProfile = Type.Object({
  social_user_id: Int,
  age: Str,
  access_token: Type.String({ description: "Always empty: tokens of the social networks are never handed out." }),
  app_info_id: Type.Integer({ description: "Always 0." }),
  browser_name: Str,
  campaign_id: Type.Integer({ description: "Campaign of the latest login." }),
  campaign_name: Str,
  device_id: Type.Integer({ description: "Access point of the latest login; 0 when unknown." }),
  device_mac: Type.String({ description: "MAC of that access point." }),
  email: Str,
  full_name: Str,
  gender: Str,
  phone_number: Str,
  birthdate: Str,
  locale: Str,
  location_id: Type.Integer({ description: "Location of the latest login." }),
  location_name: Str,
  picture_url: Str,
  location_access: Type.Null(),
  return: Type.Integer({ description: "Logins after the first one (0 for a guest seen once)." }),
  radius_session_total_time: Type.Integer({ description: "Seconds online, from RADIUS accounting." }),
  radius_total_bandwidth_input: Type.Integer({ description: "Octets sent by the guest." }),
  radius_total_bandwidth_output: Type.Integer({ description: "Octets received by the guest." }),
  radius_session_first_datetime: Datetime("First RADIUS session,"),
  radius_session_last_datetime: Datetime("Latest RADIUS session,"),
  social_network: Str,
  social_network_id: Type.String({ description: "The guest's id within the network (e-mail or phone for forms)." }),
  timezone: Type.String({ description: "Time zone of the latest login's location." }),
  updated_at: Datetime("Last change of the guest record,"),
  user_id: Type.Integer({ description: "Same as social_user_id." }),
  user_device_agent: Str,
  user_device_brand: Str,
  user_device_os_name: Str,
  user_device_os_version: Str,
  user_device_type: Str,
  user_mac: Type.String({ description: "Client MAC of the latest login." }),
  user_macs: Type.Array(Type.String(), {
    description: "Every client MAC the guest logged in from, latest first: one guest across private (randomised) addresses (docs/sessions.md).",
  }),
  username: Str,
  created_at: Datetime("First seen,"),
  last_login_datetime: Datetime("Latest login,"),
  terms_accepted: Type.Integer({ description: "1 when the guest accepted the campaign's terms at the latest login." }),
  terms_version: Type.String({ description: "Version of the terms shown at the latest login (16 hex digits of their SHA-256), or empty." }),
  marketing_opt_in: Type.Integer({
    description: "The guest's latest marketing choice on a page that offered the opt-in: 1 ticked, 0 not ticked or never asked.",
  }),
  marketing_opt_in_datetime: Datetime("When that choice was made,"),
  marketing_version: Type.String({ description: "Version of the opt-in text the guest saw when choosing, or empty." }),
});

export const SocialUserProfileResponse = Type.Object({ status: Success, data: Type.Array(SocialUserProfile) });

export const GuestIdParams = Type.Object({
  identifier: F.identifier(),
  user_id: F.id("The guest's social_user_id."),
});

const Rows = (description: string) => Type.Array(Type.Record(Type.String(), Type.Unknown()), { description });

export const GuestExportResponse = Type.Object({
  status: Success,
  data: Type.Object({
    guest: Type.Record(Type.String(), Type.Unknown(), { description: "The guest record: identity, profile fields, RADIUS totals." }),
    macs: Type.Array(Type.String(), { description: "Every client MAC the guest was seen with." }),
    logins: Rows("Every login: where, when, through which campaign, device and browser."),
    locations: Rows("First login at each location."),
    mac_addresses: Rows("MACs remembered for returning guests."),
    radius_sessions: Rows("RADIUS sessions of the guest or of its MACs on the account's devices."),
    daily_usage: Rows("Octets per location and local day."),
    visits: Rows("Days the guest was seen at each location."),
    portal_credentials: Rows("One-time RADIUS credentials issued at login (passwords left out)."),
    sms_codes: Rows("Text-message codes sent to the guest's phone (codes left out)."),
    portal_grants: Rows("Access granted to the guest's MACs through a controller or grant URL."),
    messages: Rows("Messages of guest automations to the guest: channel, address, subject, state, times."),
    survey_answers: Rows("The guest's answers to surveys after visits (score 0-10, comment)."),
    consent_changes: Rows("Changes of the marketing choice outside a login: unsubscribes, STOP to a text."),
  }),
});

export const GuestEraseResponse = Type.Object({ status: Success, message: Type.String() });

/** Retention: at most ten years. */
export const MAX_RETENTION_DAYS = 3650;

export const RetentionParams = Type.Object({
  identifier: F.identifier(),
  retention_days: Type.Integer({
    minimum: 0,
    maximum: MAX_RETENTION_DAYS,
    description: `Guests not seen (no login, no RADIUS session) for this many days are erased automatically; 0 turns it off (the default). At most ${MAX_RETENTION_DAYS}.`,
    "x-error": "invalid",
  }),
});

export const GetRetentionParams = Type.Object({ identifier: F.identifier() });
export const GetRetentionResponse = Type.Object({
  status: Success,
  retention_days: Type.Integer({ description: "The period in force: guests not seen for this many days are erased; 0: off." }),
});
export const RetentionResponse = Type.Object({ status: Success, message: Type.String(), retention_days: Type.Integer() });
