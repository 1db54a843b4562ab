/** Gateways: devices, the UniFi and Omada controllers, and the RadSec certificates issued to devices. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

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
  /** "ok", a ControllerFault ("unreachable", "certificate", ...), or "" before the first call. */
  last_status: Generated<string>;
  /** What the last call found, in words. */
  last_message: Generated<string>;
  /** When (UTC, "YYYY-MM-DD HH:MM:SS"), or "". */
  last_checked_at: Generated<string>;
  /** JSON array of the hosts last pushed as pre-authorization allowances. */
  pushed_allowances: Generated<string>;
}

export interface LocationControllersTable {
  location_id: number;
  controller_id: number;
}

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
