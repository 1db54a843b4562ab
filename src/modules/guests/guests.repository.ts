import { type Selectable, sql } from "kysely";
import type { DB } from "../../db/database.js";
import { dialectOf } from "../../db/dialect.js";
import type { GuestsTable, LoginsTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type GuestRow = Selectable<GuestsTable>;

export interface GuestSearchRow {
  id: number;
  full_name: string;
  email: string;
  phone_number: string;
  social_network: string;
  created_at: string;
  updated_at: string;
}

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

/** One guest at one location, as the export writes it. */
export interface GuestExportRow {
  guest_id: number;
  full_name: string;
  email: string;
  phone_number: string;
  social_network: string;
  marketing_opt_in: number;
  marketing_opt_in_at: string | null;
  marketing_version: string;
  first_login_at: string;
  last_mac: string | null;
  last_login_at: string | null;
  visit_days: number | string;
  octets: number | string;
}

export interface GuestExportPage {
  accountId: number;
  locationId: number;
  fromDay: string;
  toDay: string;
  campaignId?: number;
  loginType?: string;
  /** Keyset: only guests with a greater id (0 for the first page). */
  afterGuestId: number;
  limit: number;
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

    /**
     * One page of a location's guests with a login on a local day of the range (and through the
     * campaign / of the login type when given), in order of guest id after `afterGuestId`: a range
     * scan of guest_locations_location, so every page costs the same however deep the export is.
     * Per guest: the latest login there (MAC, time), the visit days in the range (daily_visitors_guest)
     * and the octets used there in the range (daily_usage's primary key).
     */
    async exportPage(db: DB, q: GuestExportPage): Promise<GuestExportRow[]> {
      return db
        .selectFrom("guest_locations as gl")
        .innerJoin("guests as g", "g.id", "gl.guest_id")
        .select((eb) => {
          const latestLogin = (column: "client_mac" | "logged_at") =>
        eb
          .selectFrom("logins as ll")
          .select(`ll.${column}`)
          .whereRef("ll.guest_id", "=", "gl.guest_id")
          .whereRef("ll.location_id", "=", "gl.location_id")
          .orderBy("ll.id", "desc")
          .limit(1);
          return [
          "gl.guest_id",
          "g.full_name",
          "g.email",
          "g.phone_number",
          "g.social_network",
          "g.marketing_opt_in",
          "g.marketing_opt_in_at",
          "g.marketing_version",
          "gl.first_login_at",
          latestLogin("client_mac").as("last_mac"),
          latestLogin("logged_at").as("last_login_at"),
          eb
            .selectFrom("daily_visitors as dv")
            .select(eb.fn.countAll<number>().as("n"))
            .whereRef("dv.guest_id", "=", "gl.guest_id")
            .whereRef("dv.location_id", "=", "gl.location_id")
            .where("dv.day", ">=", q.fromDay)
            .where("dv.day", "<=", q.toDay)
            .as("visit_days"),
          eb
            .selectFrom("daily_usage as du")
            .select((sub) => sub.fn.coalesce(sub.fn.sum<number>("du.octets"), sub.lit(0)).as("o"))
            .whereRef("du.guest_id", "=", "gl.guest_id")
            .whereRef("du.location_id", "=", "gl.location_id")
            .where("du.day", ">=", q.fromDay)
            .where("du.day", "<=", q.toDay)
            .as("octets"),
          ];
        })
        .where("gl.location_id", "=", q.locationId)
        .where("gl.guest_id", ">", q.afterGuestId)
        // Said twice so that a merge join on guests starts at the keyset too (PostgreSQL does not infer it).
        .where("g.id", ">", q.afterGuestId)
        .where("g.account_id", "=", q.accountId)
        .where((eb) => {
          let logins = eb
            .selectFrom("logins as l")
            .select(eb.lit(1).as("one"))
            .whereRef("l.guest_id", "=", "gl.guest_id")
            // "+": not an index column here, so the guest's logins (logins_guest) are searched, never
            // every login of the location in the range (logins_location_day) once per guest.
            .where(sql<number>`+${sql.ref("l.location_id")}`, "=", eb.ref("gl.location_id"))
            .where("l.local_day", ">=", q.fromDay)
            .where("l.local_day", "<=", q.toDay);
          if (q.campaignId !== undefined) logins = logins.where("l.campaign_id", "=", q.campaignId);
          if (q.loginType !== undefined) logins = logins.where("l.login_type", "=", q.loginType);
          // OFFSET 0 keeps PostgreSQL from turning EXISTS into a semi-join over every login of the range
          // (a scan per page): it stays a per-row probe, and the page a range scan of the keyset index.
          return eb.exists(logins.limit(1).offset(0));
        })
        .orderBy("gl.guest_id")
        .limit(q.limit)
        .execute() as Promise<GuestExportRow[]>;
    },

    /** The account's guests among `ids`. */
    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<GuestRow[]> {
      if (ids.length === 0) return [];
      return withRowLock(db, db.selectFrom("guests").selectAll().where("account_id", "=", accountId).where("id", "in", ids), lock).execute();
    },

    /** Which of the guests logged in at one of the locations. */
    async seenAt(db: DB, guestIds: number[], locationIds: number[]): Promise<Set<number>> {
      if (guestIds.length === 0 || locationIds.length === 0) return new Set();
      const rows = await db
        .selectFrom("guest_locations")
        .select("guest_id")
        .distinct()
        .where("guest_id", "in", guestIds)
        .where("location_id", "in", locationIds)
        .execute();
      return new Set(rows.map((r) => r.guest_id));
    },

    /** The guests, their rows locked until the transaction ends (erasure). */
    async findOwnedForUpdate(db: DB, accountId: number, ids: number[]): Promise<GuestRow[]> {
      return this.findOwned(db, accountId, ids, "update");
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
          "l.terms_accepted",
          "l.marketing_opt_in",
          "l.terms_version",
          "l.marketing_version",
          "l.voucher_id",
          "loc.name as location_name",
          "loc.timezone",
          "c.name as campaign_name",
          "d.mac_address as device_mac",
        ])
        .where("l.id", "in", loginIds)
        .execute();
    },

    /**
     * The console's guest search: newest first, keyset-paged by id (`beforeId`), matching part of the
     * name, e-mail or phone number (through a trigram index on either database), or exactly one of the
     * guest's MACs (`mac`, canonical). Without a text, driven by guests_account_id: a page costs the
     * same however deep it is.
     */
    async search(
      db: DB,
      accountId: number,
      q: { text: string; mac: string | null; beforeId: number | null; limit: number },
    ): Promise<GuestSearchRow[]> {
      let query = db
        .selectFrom("guests as g")
        .select(["g.id", "g.full_name", "g.email", "g.phone_number", "g.social_network", "g.created_at", "g.updated_at"])
        .where("g.account_id", "=", accountId);
      if (q.beforeId !== null) query = query.where("g.id", "<", q.beforeId);
      if (q.mac !== null) {
        const mac = q.mac;
        // The MAC's guests by the primary key of guest_macs first, not a probe per guest.
        query = query.where("g.id", "in", db.selectFrom("guest_macs as m").select("m.guest_id").where("m.account_id", "=", accountId).where("m.client_mac", "=", mac));
      } else if (q.text !== "") {
        const text = q.text.toLowerCase();
        if (dialectOf(db) === "sqlite" && [...text].length >= 3) {
          // The trigram index (guest_search, see the baseline migration): a phrase is a substring, any case.
          const phrase = `"${text.replace(/"/g, '""')}"`;
          query = query.where("g.id", "in", sql<number>`(select rowid from guest_search where guest_search match ${phrase})`);
        } else {
          // PostgreSQL's GIN trigram index serves this LIKE by itself (on this very expression).
          const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          query = query.where(sql`lower(g.full_name || ' ' || g.email || ' ' || g.phone_number)`, "like", sql`${pattern} escape '\\'`);
        }
      }
      return query.orderBy("g.id", "desc").limit(q.limit).execute();
    },

    async macsOf(db: DB, accountId: number, guestIds: number[]): Promise<{ guest_id: number; client_mac: string; last_login_at: string }[]> {
      if (guestIds.length === 0) return [];
      return db
        .selectFrom("guest_macs")
        .select(["guest_id", "client_mac", "last_login_at"])
        .where("account_id", "=", accountId)
        .where("guest_id", "in", guestIds)
        .orderBy("last_login_at", "desc")
        .execute();
    },

    /** A guest's latest logins, newest first (logins_guest index). */
    async loginHistory(db: DB, guestId: number, limit: number) {
      return db
        .selectFrom("logins as l")
        .leftJoin("locations as loc", "loc.id", "l.location_id")
        .select([
          "l.id",
          "l.logged_at",
          "l.login_type",
          "l.client_mac",
          "l.location_id",
          "loc.name as location_name",
          "l.browser_name",
          "l.os_name",
          "l.device_type",
          "l.terms_accepted",
          "l.terms_version",
          "l.marketing_opt_in",
          "l.marketing_version",
        ])
        .where("l.guest_id", "=", guestId)
        .orderBy("l.id", "desc")
        .limit(limit)
        .execute();
    },
  };
}

export type GuestRepository = ReturnType<typeof createGuestRepository>;
