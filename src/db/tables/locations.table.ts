/** Locations and their options (what a guest is granted there). Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

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
