/** Accounts: owners, their sub-users, API tokens, console sessions and the audit log. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { ColumnType, Generated } from "kysely";

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
