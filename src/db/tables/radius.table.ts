/** RADIUS: the credentials the portal hands out, accounting sessions, CoA/Disconnect requests and EAP instances. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

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

/** An instance holding EAP conversations, and where the others reach it (src/radius/eap/eap-handoff.ts). */
export interface EapInstancesTable {
  instance_id: string;
  address: string;
  started_at: string;
}
