/** Row types of every table, for Kysely. Mirrors migrations/. */
import type { ColumnType, Generated } from "kysely";
import type { ControllersTable, LocationControllersTable, PortalGrantsTable, ConsoleSessionsTable, DailyNewGuestsTable, VoucherBatchesTable, VoucherBatchLocationsTable, VouchersTable, VoucherDevicesTable, OpenNdsGrantsTable, WebhooksTable, WebhookDeliveriesTable, WebhookAttemptsTable, AutomationsTable, MessagesTable, MessageAttemptsTable, AutomationRunsTable, SurveyAnswersTable, ConsentEventsTable, SmsOptOutsTable } from "./schema-features.js";

export type { ControllersTable, LocationControllersTable, PortalGrantsTable, ConsoleSessionsTable, DailyNewGuestsTable, VoucherBatchesTable, VoucherBatchLocationsTable, VouchersTable, VoucherDevicesTable, OpenNdsGrantsTable, WebhooksTable, WebhookDeliveriesTable, WebhookAttemptsTable, AutomationsTable, MessagesTable, MessageAttemptsTable, AutomationRunsTable, SurveyAnswersTable, ConsentEventsTable, SmsOptOutsTable } from "./schema-features.js";

export interface AccountsTable {
  id: Generated<number>;
  email: string;
  created_at: string;
  /** The owner's console password as `scrypt$N$salt$hash`; null until set (`guestwifi account set-password`). */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Guests not seen for this many days are erased by the retention job; 0: never. */
  retention_days: Generated<number>;
  /** Audit log entries older than this many days are deleted by housekeeping; 0: kept for ever. */
  audit_retention_days: Generated<number>;
  /** The owner gets the quick report (0/1), daily or weekly, of one location (0: every location). */
  quickreport: Generated<number>;
  quickreport_frequency: Generated<string>;
  quickreport_location_id: Generated<number>;
}

export interface SubUsersTable {
  id: Generated<number>;
  account_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  password_hash: string;
  quickreport: number;
  readonly: number;
  quickreport_location_id: number;
  /** daily or weekly */
  quickreport_frequency: Generated<string>;
  /** Set while the sub-user is disabled: no sign-in, no API call, no quick report. */
  disabled_at: string | null;
  /** The locations it may see and change, ",1,2," (list-column.ts); "" for every location of the account. */
  location_scope: Generated<string>;
  date_created: string;
  last_modified: string;
}

export interface ApiIdentifiersTable {
  id: Generated<number>;
  account_id: number;
  sub_user_id: number | null;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CampaignsTable {
  id: Generated<number>;
  account_id: number | null;
  name: string;
  ssid: string;
  payload: string;
  filename: string;
  date_created: string;
  last_modified: string;
  deleted: number;
}

export interface LocationsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  address1: string;
  town: string;
  state: string;
  zipcode: string;
  country: string;
  phone_number: string;
  timezone: string;
  latitude: number | null;
  longitude: number | null;
  website: string | null;
  portal_slug: string;
  default_campaign_id: number | null;
  date_created: string;
  last_modified: string;
  deleted: number;
}

export interface LocationOptionsTable {
  location_id: number;
  session_time_limit: number;
  max_bandwidth_down: number;
  max_bandwidth_up: number;
  daily_bandwidth_cap: number;
  content_filter: number;
  dns_server_1: string;
  dns_server_2: string;
  whitelist: string;
  blacklist: string;
  updated_at: string;
}

export interface DevicesTable {
  id: Generated<number>;
  account_id: number;
  location_id: number | null;
  model_id: string;
  name: string;
  mac_address: string;
  wan_ip: Generated<string>;
  radius_secret: string;
  upgrade: Generated<number>;
  last_upgraded: string | null;
  wifi_channel: Generated<string>;
  firmware_version: Generated<string>;
  status: Generated<string>;
  sync_response: Generated<string>;
  last_heard_at: string | null;
  create_date: string;
  update_date: string;
}

export interface GuestsTable {
  id: Generated<number>;
  account_id: number;
  social_network: string;
  network_user_id: string;
  email: Generated<string>;
  full_name: Generated<string>;
  username: Generated<string>;
  gender: Generated<string>;
  phone_number: Generated<string>;
  birthdate: Generated<string>;
  age: Generated<string>;
  locale: Generated<string>;
  picture_url: Generated<string>;
  radius_session_total_time: Generated<number>;
  radius_total_bandwidth_input: Generated<number>;
  radius_total_bandwidth_output: Generated<number>;
  radius_session_first_datetime: string | null;
  radius_session_last_datetime: string | null;
  created_at: string;
  updated_at: string;
  /** The guest's latest marketing choice on a page that asked (0/1), when and for which text version. */
  marketing_opt_in: Generated<number>;
  marketing_opt_in_at: Generated<string | null>;
  marketing_version: Generated<string>;
}

export interface LoginsTable {
  id: Generated<number>;
  account_id: number;
  guest_id: number;
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
  /** 1 when the guest ticked the campaign's terms (or the page required them and they connected). */
  terms_accepted: Generated<number>;
  /** 1 when the guest ticked the campaign's marketing opt-in; never 1 unless they did. */
  marketing_opt_in: Generated<number>;
  /** Versions of the texts shown (sha256 of the text, 16 hex digits), "" when the page showed none. */
  terms_version: Generated<string>;
  marketing_version: Generated<string>;
  voucher_id: Generated<number | null>;
}

export interface GuestLocationsTable {
  guest_id: number;
  location_id: number;
  campaign_id: number;
  first_login_at: string;
}

export interface GuestMacsTable {
  account_id: number;
  client_mac: string;
  guest_id: number;
  last_login_at: string;
}

export interface DailyLoginsTable {
  location_id: number;
  day: string;
  login_type: string;
  /** Counter shard (see counterShard): readers sum a day's rows. */
  shard: Generated<number>;
  count: number;
}

/** Logins per location, local day and local hour; `shard` rows of one hour are summed (see counterShard). */
export interface HourlyLoginsTable {
  location_id: number;
  day: string;
  hour: number;
  shard: Generated<number>;
  count: number;
}

export interface DailyVisitorsTable {
  location_id: number;
  day: string;
  guest_id: number;
}

export interface DailyVisitsTable {
  location_id: number;
  day: string;
  /** Counter shard (see counterShard): readers sum a day's rows. */
  shard: Generated<number>;
  count: number;
}

export interface DailyUsageTable {
  guest_id: number;
  location_id: number;
  day: string;
  octets: number;
}

export interface PortalCredentialsTable {
  id: Generated<number>;
  username: string;
  password: string;
  guest_id: number;
  location_id: number;
  device_id: number | null;
  client_mac: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The voucher the login came through: its limits override the location's in the Access-Accept. */
  voucher_id?: number | null;
}

export interface RadiusSessionsTable {
  id: Generated<number>;
  device_id: number;
  guest_id: number | null;
  location_id: number | null;
  acct_session_id: string;
  username: string;
  client_mac: string;
  started_at: string;
  updated_at: string;
  stopped_at: string | null;
  session_time: number;
  input_octets: number;
  output_octets: number;
  terminate_cause: string | null;
  /** Framed-IP-Address from accounting; null until the gateway reports one. */
  framed_ip: string | null;
  /** The address the session's accounting came from: where CoA and Disconnect requests go. */
  nas_ip: string | null;
}

/** A CoA-Request or Disconnect-Request sent to a gateway (RFC 5176), and how it ended. */
export interface CertificateAuthoritiesTable {
  name: string;
  certificate: string;
  sealed_key: string;
  created_at: string;
}

export interface DeviceCertificatesTable {
  id: Generated<number>;
  device_id: number;
  account_id: number;
  serial: string;
  fingerprint_sha256: string;
  subject: string;
  certificate: string;
  not_before: string;
  not_after: string;
  issued_at: string;
  revoked_at: string | null;
}

export interface CoaRequestsTable {
  id: Generated<number>;
  session_id: number;
  device_id: number;
  location_id: number | null;
  kind: string;
  reason: string;
  nas_address: string;
  nas_port: number;
  requested_at: string;
  finished_at: string | null;
  result: string;
  error_cause: number | null;
  attempts: number;
}

export interface SmsCodesTable {
  id: Generated<number>;
  location_id: number;
  phone_number: string;
  code_hash: string;
  attempts: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface RateLimitHitsTable {
  key: string;
  window_start: number;
  hits: number;
}

export interface Database {
  accounts: AccountsTable;
  sub_users: SubUsersTable;
  api_identifiers: ApiIdentifiersTable;
  campaigns: CampaignsTable;
  locations: LocationsTable;
  location_options: LocationOptionsTable;
  devices: DevicesTable;
  guests: GuestsTable;
  logins: LoginsTable;
  guest_locations: GuestLocationsTable;
  guest_macs: GuestMacsTable;
  daily_logins: DailyLoginsTable;
  hourly_logins: HourlyLoginsTable;
  daily_visitors: DailyVisitorsTable;
  daily_visits: DailyVisitsTable;
  daily_usage: DailyUsageTable;
  portal_credentials: PortalCredentialsTable;
  radius_sessions: RadiusSessionsTable;
  sms_codes: SmsCodesTable;
  service_secrets: ServiceSecretsTable;
  rate_limit_hits: RateLimitHitsTable;
  controllers: ControllersTable;
  location_controllers: LocationControllersTable;
  portal_grants: PortalGrantsTable;
  console_sessions: ConsoleSessionsTable;
  daily_new_guests: DailyNewGuestsTable;
  voucher_batches: VoucherBatchesTable;
  voucher_batch_locations: VoucherBatchLocationsTable;
  vouchers: VouchersTable;
  voucher_devices: VoucherDevicesTable;
  opennds_grants: OpenNdsGrantsTable;
  coa_requests: CoaRequestsTable;
  device_certificates: DeviceCertificatesTable;
  certificate_authorities: CertificateAuthoritiesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  automations: AutomationsTable;
  messages: MessagesTable;
  message_attempts: MessageAttemptsTable;
  automation_runs: AutomationRunsTable;
  survey_answers: SurveyAnswersTable;
  consent_events: ConsentEventsTable;
  sms_opt_outs: SmsOptOutsTable;
  audit_log: AuditLogTable;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: number;
  at: string;
  /** owner, sub-user or cli */
  actor_type: string;
  sub_user_id: number | null;
  actor: string;
  /** api, console or cli */
  via: string;
  action: string;
  /** JSON object of id lists by parameter */
  objects: string;
  /** ",param:id," per object, for filtering */
  object_keys: string;
  /** JSON object of the fields given, secrets as "(changed)" */
  changes: string;
  address: string;
}
