/** Webhooks and their outbox. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

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
  /**
   * PostgreSQL: the transaction that queued it (its 64-bit id, the column's default); deliveries
   * are sent in (tx, id) order. 0 on SQLite, where the ids follow the commits.
   */
  tx: Generated<number>;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}
