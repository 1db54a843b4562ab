/** Counters by location and local day (or hour) that the analytics read. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

export interface DailyLoginsTable {
  location_id: number;
  day: string;
  login_type: string;
  /** Counter shard (see counterShard): readers sum a day's rows. */
  shard: Generated<number>;
  count: number;
}

/** Logins per location, local day and local hour; `shard` rows of one hour are summed (see counterShard). */
export interface HourlyLoginsTable {
  location_id: number;
  day: string;
  hour: number;
  shard: Generated<number>;
  count: number;
}

export interface DailyVisitorsTable {
  location_id: number;
  day: string;
  guest_id: number;
}

export interface DailyVisitsTable {
  location_id: number;
  day: string;
  /** Counter shard (see counterShard): readers sum a day's rows. */
  shard: Generated<number>;
  count: number;
}

export interface DailyUsageTable {
  guest_id: number;
  location_id: number;
  day: string;
  octets: number;
}

/** Octets per location and local day, kept from daily_usage by a trigger (migration 2026-11-28T1700-location-usage). */
export interface DailyLocationUsageTable {
  location_id: number;
  day: string;
  /** Counter shard (see counterShard in dialect.ts); readers sum the shards. */
  shard: Generated<number>;
  octets: number;
}

export interface DailyNewGuestsTable {
  location_id: number;
  day: string;
  /** Counter shard (see counterShard in dialect.ts); readers sum the shards. */
  shard: Generated<number>;
  count: number;
}
