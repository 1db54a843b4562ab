/** The captive portal's grants (walled-garden gateways, openNDS) and SMS login codes. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

export interface PortalGrantsTable {
  id: Generated<number>;
  location_id: number;
  client_ip: string;
  client_mac: string;
  granted_at: string;
  expires_at: string;
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
