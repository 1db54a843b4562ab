/**
 * Row types of the tables of the features built on the core (controllers, portal grants, the console,
 * vouchers, openNDS, webhooks), for Kysely; src/db/schema.ts puts them in the Database type. Mirrors
 * migrations/.
 */
import type { Generated } from "kysely";

export interface ControllersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** unifi or omada */
  type: string;
  url: string;
  site: string;
  /** password or api_key */
  auth: string;
  /** The username and password, or the API key, sealed (src/db/secret-box.ts). */
  credentials: string;
  /** SHA-256 of the controller's certificate, 64 upper-case hex digits, or "" (the usual CA checks). */
  tls_fingerprint: Generated<string>;
  date_created: string;
  last_modified: string;
}

export interface LocationControllersTable {
  location_id: number;
  controller_id: number;
}

export interface PortalGrantsTable {
  id: Generated<number>;
  location_id: number;
  client_ip: string;
  client_mac: string;
  granted_at: string;
  expires_at: string;
}

export interface ConsoleSessionsTable {
  /** SHA-256 (hex) of the session cookie's token. */
  id: string;
  account_id: number;
  sub_user_id: number | null;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface DailyNewGuestsTable {
  location_id: number;
  day: string;
  /** Counter shard (see counterShard in dialect.ts); readers sum the shards. */
  shard: Generated<number>;
  count: number;
}

export interface VoucherBatchesTable {
  id: Generated<number>;
  account_id: number;
  code_count: number;
  duration_minutes: number;
  /** Bytes for the whole code (all its devices and sessions); 0 = none. */
  data_cap: number;
  /** Bytes per second; 0 = the location's. */
  bandwidth_up: number;
  bandwidth_down: number;
  devices_per_code: number;
  /** A code cannot be used after this (UTC); null = never. */
  expires_at: string | null;
  created_at: string;
}

export interface VoucherBatchLocationsTable {
  batch_id: number;
  location_id: number;
}

export interface VouchersTable {
  id: Generated<number>;
  account_id: number;
  batch_id: number;
  code: string;
  /** The first login with the code: its duration counts from here. */
  first_used_at: string | null;
  /** first_used_at plus the batch's duration: the code's time runs out then. */
  ends_at: string | null;
  revoked_at: string | null;
}

export interface VoucherDevicesTable {
  voucher_id: number;
  /** The client MAC, or the page session when the gateway gives none. */
  device_key: string;
  first_used_at: string;
}

export interface OpenNdsGrantsTable {
  id: Generated<number>;
  location_id: number;
  device_id: number;
  gateway_hash: string;
  rhid: string;
  entry: string;
  created_at: string;
  expires_at: string;
}

export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  /** ",guest.login,session.start,": each event between commas. */
  events: string;
  /** ",1,2,": the locations whose events are sent; "" for every location. */
  location_ids: Generated<string>;
  /** Standard Webhooks secret, "whsec_" and base64. */
  secret: string;
  date_created: string;
  last_modified: string;
  deleted: Generated<number>;
}

/** The outbox: one row per event and webhook. Times in epoch milliseconds. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  account_id: number;
  event_type: string;
  payload: string;
  /** pending, delivered or failed */
  status: Generated<string>;
  attempts: Generated<number>;
  created_ms: number;
  next_attempt_ms: number;
  lease_until_ms: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  finished_ms: number | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface AutomationsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** welcome, visit-ended, absence, birthday */
  trigger: string;
  /** email or sms */
  channel: string;
  /** ",1,2,": the locations it runs for; "" for every location of the account. */
  location_ids: string;
  delay_minutes: number;
  absence_days: number;
  /** Local time (HH:MM) absence and birthday messages go out. */
  send_time: string;
  subject: string;
  body: string;
  /** JSON: language -> { subject, body }. */
  translations: string;
  cap_messages: number;
  cap_days: number;
  survey: number;
  survey_question: string;
  review_url: string;
  active: number;
  deleted: Generated<number>;
  date_created: string;
  last_modified: string;
}

export interface MessagesTable {
  id: Generated<number>;
  account_id: number | null;
  /** automation, quick-report, test */
  kind: string;
  /** email or sms */
  channel: string;
  automation_id: number | null;
  guest_id: number | null;
  location_id: number | null;
  sub_user_id: number | null;
  dedupe_key: string | null;
  trigger_at: string;
  recipient: Generated<string>;
  subject: Generated<string>;
  language: Generated<string>;
  /** The MIME message of an e-mail, the text of a text message; null until written. */
  content: string | null;
  /** pending, sent, failed, skipped, cancelled */
  status: Generated<string>;
  attempts: Generated<number>;
  created_ms: number;
  next_attempt_ms: number;
  lease_until_ms: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  finished_ms: number | null;
  provider_id: string | null;
}

export interface MessageAttemptsTable {
  id: Generated<number>;
  message_id: number;
  channel: string;
  attempted_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface AutomationRunsTable {
  automation_id: number;
  location_id: number;
  day: string;
}

export interface SurveyAnswersTable {
  id: Generated<number>;
  account_id: number;
  message_id: number;
  automation_id: number;
  guest_id: number;
  location_id: number;
  score: number;
  comment: string;
  answered_at: string;
  local_day: string;
}

export interface ConsentEventsTable {
  id: Generated<number>;
  account_id: number;
  guest_id: number;
  marketing_opt_in: number;
  /** unsubscribe-link, one-click, sms-stop */
  source: string;
  message_id: number | null;
  changed_at: string;
}

export interface SmsOptOutsTable {
  phone_number: string;
  opted_out_at: string;
}
