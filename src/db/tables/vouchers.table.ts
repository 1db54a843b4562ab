/** Vouchers: batches, the locations they are good at, codes and the devices that used them. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

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
