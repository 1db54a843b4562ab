/** Passpoint (Hotspot 2.0): profiles, their locations and the credentials issued to guests. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

export interface PasspointConfigsTable {
  id: Generated<number>;
  account_id: number;
  ssid: string;
  domain: string;
  realm: string;
  /** Upper-case hex OIs, comma-separated. */
  roaming_consortium: Generated<string>;
  friendly_name: string;
  /** ttls or tls */
  eap_method: Generated<string>;
  credential_days: Generated<number>;
  date_created: string;
  last_modified: string;
}

export interface PasspointConfigLocationsTable {
  location_id: number;
  config_id: number;
}

export interface PasspointCredentialsTable {
  id: Generated<number>;
  account_id: number;
  guest_id: number;
  config_id: number;
  location_id: number;
  /** ttls or tls */
  kind: string;
  username: string;
  password_hash: Generated<string>;
  serial: string | null;
  fingerprint_sha256: string | null;
  certificate: string | null;
  cui: string;
  issued_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** api, console, guest or "" */
  revoked_by: Generated<string>;
  last_used_at: string | null;
}
