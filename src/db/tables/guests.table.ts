/** Guests, their logins, where and with which MACs they were seen, and their marketing consent. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

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
