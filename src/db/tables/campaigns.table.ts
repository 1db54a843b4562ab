/** Campaigns (the portal pages) and the consent texts they show. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

export interface CampaignsTable {
  id: Generated<number>;
  account_id: number | null;
  name: string;
  ssid: string;
  payload: string;
  filename: string;
  date_created: string;
  last_modified: string;
  deleted: number;
}

/** Consent texts by version (modules/campaigns/consent-texts.ts). */
export interface ConsentTextsTable {
  version: string;
  kind: string;
  text: string;
  saved_at: string;
}
