/**
 * Analytics read only the aggregates (daily_logins, daily_visits, daily_new_guests, daily_location_usage,
 * hourly_logins), never the raw logins.
 */
import type { DB } from "../../db/database.js";

export interface LocationDayLogins {
  location_id: number;
  day: string;
  login_type: string;
  count: number;
}

export interface LocationDayHourLogins {
  location_id: number;
  day: string;
  hour: number;
  count: number;
}

export interface LocationDayVisits {
  location_id: number;
  day: string;
  count: number;
}

export function createAnalyticsRepository() {
  return {
    /** Logins per location, local day and login type (primary-key range scans, no sorting). */
    async loginsByLocationDay(db: DB, locationIds: number[], fromDay: string, toDay: string): Promise<LocationDayLogins[]> {
      if (locationIds.length === 0) return [];
      return db
        .selectFrom("daily_logins")
        .select(["location_id", "day", "login_type", "count"])
        .where("location_id", "in", locationIds)
        .where("day", ">=", fromDay)
        .where("day", "<=", toDay)
        .execute();
    },

    /** Logins per location, local day and local hour, one row per counter shard (the caller sums). */
    async loginsByLocationDayHour(db: DB, locationIds: number[], fromDay: string, toDay: string): Promise<LocationDayHourLogins[]> {
      if (locationIds.length === 0) return [];
      return db
        .selectFrom("hourly_logins")
        .select(["location_id", "day", "hour", "count"])
        .where("location_id", "in", locationIds)
        .where("day", ">=", fromDay)
        .where("day", "<=", toDay)
        .execute();
    },

    /** Distinct visitors per location and local day. */
    async visitsByLocationDay(db: DB, locationIds: number[], fromDay: string, toDay: string): Promise<LocationDayVisits[]> {
      if (locationIds.length === 0) return [];
      return db
        .selectFrom("daily_visits")
        .select(["location_id", "day", "count"])
        .where("location_id", "in", locationIds)
        .where("day", ">=", fromDay)
        .where("day", "<=", toDay)
        .execute();
    },

    /** Guests seen for the first time at the location, per local day. */
    async newGuestsByLocationDay(db: DB, locationIds: number[], fromDay: string, toDay: string): Promise<LocationDayVisits[]> {
      if (locationIds.length === 0) return [];
      return db
        .selectFrom("daily_new_guests")
        .select(["location_id", "day", "count"])
        .where("location_id", "in", locationIds)
        .where("day", ">=", fromDay)
        .where("day", "<=", toDay)
        .execute();
    },

    /**
     * Octets guests used (in and out, from RADIUS accounting), per location and local day: the
     * location's totals the database keeps from daily_usage, one row per counter shard (summed here).
     */
    async usageByLocationDay(db: DB, locationIds: number[], fromDay: string, toDay: string): Promise<LocationDayVisits[]> {
      if (locationIds.length === 0) return [];
      return db
        .selectFrom("daily_location_usage")
        .select((eb) => ["location_id", "day", eb.fn.sum<number>("octets").as("count")])
        .where("location_id", "in", locationIds)
        .where("day", ">=", fromDay)
        .where("day", "<=", toDay)
        .groupBy(["location_id", "day"])
        .execute();
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
