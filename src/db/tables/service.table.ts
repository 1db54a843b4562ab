/** The service's own state: generated secrets and shared rate-limit counters. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */

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
