import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { GuestsTable, LoginsTable } from "../../db/schema.js";

export type GuestRow = Selectable<GuestsTable>;

export interface GuestListRow {
  guest_id: number;
  location_id: number;
  campaign_id: number;
  first_login_at: string;
}

export interface GuestListQuery {
  locationIds: number[];
  fromDay: string;
  toDay: string;
  campaignId?: number;
  loginType?: string;
}

export interface LoginStatsRow {
  guest_id: number;
  logins: number;
  last_login_id: number;
}

/** A login with the names of its location, campaign and access point. */
export interface LoginDetailRow
  extends Omit<Selectable<LoginsTable>, "account_id" | "login_type" | "local_day"> {
  location_name: string | null;
  timezone: string | null;
  campaign_name: string | null;
  device_mac: string | null;
}

export function createGuestRepository() {
  return {
    /**
     * One row per guest and location among the logins on local days [fromDay, toDay] at those locations,
     * with that guest's first login there. Driven by the logins_location_day index.
     */
    async listByLoginDays(db: DB, q: GuestListQuery): Promise<GuestListRow[]> {
      if (q.locationIds.length === 0) return [];
      let query = db
        .selectFrom("logins as l")
        .innerJoin("guest_locations as gl", (j) => j.onRef("gl.guest_id", "=", "l.guest_id").onRef("gl.location_id", "=", "l.location_id"))
        .select(["l.guest_id", "l.location_id", "gl.campaign_id", "gl.first_login_at"])
        .where("l.location_id", "in", q.locationIds)
        .where("l.local_day", ">=", q.fromDay)
        .where("l.local_day", "<=", q.toDay);
      if (q.campaignId !== undefined) query = query.where("l.campaign_id", "=", q.campaignId);
      // A guest's identity includes its network, so every login of a guest has the guest's login type.
      if (q.loginType !== undefined) query = query.where("l.login_type", "=", q.loginType);
      return query
        .groupBy(["l.guest_id", "l.location_id", "gl.campaign_id", "gl.first_login_at"])
        .orderBy("l.guest_id")
        .orderBy("l.location_id")
        .execute();
    },

    /** The account's guests among `ids`. */
    async findOwned(db: DB, accountId: number, ids: number[]): Promise<GuestRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom("guests").selectAll().where("account_id", "=", accountId).where("id", "in", ids).execute();
    },

    /** Number of logins and the latest login of each guest (covered by the logins_guest index). */
    async loginStats(db: DB, guestIds: number[]): Promise<LoginStatsRow[]> {
      if (guestIds.length === 0) return [];
      return db
        .selectFrom("logins")
        .select((eb) => ["guest_id", eb.fn.countAll<number>().as("logins"), eb.fn.max("id").as("last_login_id")])
        .where("guest_id", "in", guestIds)
        .groupBy("guest_id")
        .execute();
    },

    async findLoginDetails(db: DB, loginIds: number[]): Promise<LoginDetailRow[]> {
      if (loginIds.length === 0) return [];
      return db
        .selectFrom("logins as l")
        .leftJoin("locations as loc", "loc.id", "l.location_id")
        .leftJoin("campaigns as c", "c.id", "l.campaign_id")
        .leftJoin("devices as d", "d.id", "l.device_id")
        .select([
          "l.id",
          "l.guest_id",
          "l.location_id",
          "l.campaign_id",
          "l.device_id",
          "l.client_mac",
          "l.user_agent",
          "l.browser_name",
          "l.os_name",
          "l.os_version",
          "l.device_type",
          "l.device_brand",
          "l.logged_at",
          "loc.name as location_name",
          "loc.timezone",
          "c.name as campaign_name",
          "d.mac_address as device_mac",
        ])
        .where("l.id", "in", loginIds)
        .execute();
    },
  };
}

export type GuestRepository = ReturnType<typeof createGuestRepository>;
