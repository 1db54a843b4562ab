/** SQL of the RADIUS server: portal credentials, returning guests, sessions and usage counters. */
import { type Insertable, type Selectable, sql } from "kysely";
import type { DB } from "../db/database.js";
import { increment } from "../db/dialect.js";
import type { PortalCredentialsTable, RadiusSessionsTable } from "../db/schema.js";

export type CredentialRow = Selectable<PortalCredentialsTable>;
export type SessionRow = Selectable<RadiusSessionsTable>;

export interface SessionCounters {
  session_time: number;
  input_octets: number;
  output_octets: number;
}

export const radiusRepository = {
  async insertCredential(db: DB, values: Insertable<PortalCredentialsTable>): Promise<void> {
    await db.insertInto("portal_credentials").values(values).execute();
  },

  async findCredential(db: DB, username: string): Promise<CredentialRow | undefined> {
    return db.selectFrom("portal_credentials").selectAll().where("username", "=", username).executeTakeFirst();
  },

  /** Marks the credential used if it is still unused and fresh; false when another request got there first. */
  async consumeCredential(db: DB, id: number, now: string): Promise<boolean> {
    const res = await db
      .updateTable("portal_credentials")
      .set({ used_at: now })
      .where("id", "=", id)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async purgeCredentials(db: DB, expiredBefore: string): Promise<number> {
    const res = await db.deleteFrom("portal_credentials").where("expires_at", "<", expiredBefore).executeTakeFirst();
    return Number(res.numDeletedRows);
  },

  /**
   * A returning guest (portal login from this MAC since `since`) and, in the same query, the
   * octets they used at the location on `day` (0 when none).
   */
  async findReturningGuestUsage(
    db: DB,
    q: { accountId: number; clientMac: string; since: string; locationId: number; day: string },
  ): Promise<{ guestId: number; usedOctets: number } | undefined> {
    const row = await db
      .selectFrom("guest_macs")
      .leftJoin("daily_usage", (join) =>
        join.onRef("daily_usage.guest_id", "=", "guest_macs.guest_id").on("daily_usage.location_id", "=", q.locationId).on("daily_usage.day", "=", q.day),
      )
      .select(["guest_macs.guest_id", "daily_usage.octets"])
      .where("guest_macs.account_id", "=", q.accountId)
      .where("guest_macs.client_mac", "=", q.clientMac)
      .where("guest_macs.last_login_at", ">=", q.since)
      .executeTakeFirst();
    return row ? { guestId: row.guest_id, usedOctets: Number(row.octets ?? 0) } : undefined;
  },

  /** The guest behind a client MAC in this account, however long ago (accounting counts them all). */
  async findGuestByMac(db: DB, accountId: number, clientMac: string): Promise<number | undefined> {
    const row = await db
      .selectFrom("guest_macs")
      .select("guest_id")
      .where("account_id", "=", accountId)
      .where("client_mac", "=", clientMac)
      .executeTakeFirst();
    return row?.guest_id;
  },

  async usageOn(db: DB, guestId: number, locationId: number, day: string): Promise<number> {
    const row = await db
      .selectFrom("daily_usage")
      .select("octets")
      .where("guest_id", "=", guestId)
      .where("location_id", "=", locationId)
      .where("day", "=", day)
      .executeTakeFirst();
    return row ? Number(row.octets) : 0;
  },

  async addUsage(db: DB, guestId: number, locationId: number, day: string, octets: number): Promise<void> {
    await db
      .insertInto("daily_usage")
      .values({ guest_id: guestId, location_id: locationId, day, octets })
      .onConflict((oc) => oc.columns(["guest_id", "location_id", "day"]).doUpdateSet({ octets: increment("daily_usage.octets", octets) }))
      .execute();
  },

  async findSession(db: DB, deviceId: number, acctSessionId: string): Promise<SessionRow | undefined> {
    return db
      .selectFrom("radius_sessions")
      .selectAll()
      .where("device_id", "=", deviceId)
      .where("acct_session_id", "=", acctSessionId)
      .executeTakeFirst();
  },

  /** Creates the session with zero counters unless it exists (a concurrent packet may have created it). */
  async insertSession(db: DB, values: Insertable<RadiusSessionsTable>): Promise<void> {
    await db
      .insertInto("radius_sessions")
      .values(values)
      .onConflict((oc) => oc.columns(["device_id", "acct_session_id"]).doNothing())
      .execute();
  },

  /**
   * Moves the session's counters from `from` to `to`, only if nobody moved them meanwhile
   * (compare-and-set: two packets of one session never both count the same octets).
   */
  async advanceSession(
    db: DB,
    id: number,
    from: SessionCounters,
    to: SessionCounters,
    now: string,
    stop: { terminateCause: string | null } | undefined,
  ): Promise<boolean> {
    const res = await db
      .updateTable("radius_sessions")
      .set({ ...to, updated_at: now, ...(stop ? { stopped_at: now, terminate_cause: stop.terminateCause } : {}) })
      .where("id", "=", id)
      .where("session_time", "=", from.session_time)
      .where("input_octets", "=", from.input_octets)
      .where("output_octets", "=", from.output_octets)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /** Accounting-On/Off: the NAS restarted, so every session it had open is over. */
  async closeDeviceSessions(db: DB, deviceId: number, now: string, cause: string): Promise<number> {
    const res = await db
      .updateTable("radius_sessions")
      .set({ stopped_at: now, updated_at: now, terminate_cause: cause })
      .where("device_id", "=", deviceId)
      .where("stopped_at", "is", null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  },

  async addGuestTotals(db: DB, guestId: number, delta: SessionCounters, now: string): Promise<void> {
    await db
      .updateTable("guests")
      .set({
        radius_session_total_time: increment("radius_session_total_time", delta.session_time),
        radius_total_bandwidth_input: increment("radius_total_bandwidth_input", delta.input_octets),
        radius_total_bandwidth_output: increment("radius_total_bandwidth_output", delta.output_octets),
        radius_session_first_datetime: sql<string>`coalesce(${sql.ref("radius_session_first_datetime")}, ${now})`,
        radius_session_last_datetime: now,
      })
      .where("id", "=", guestId)
      .execute();
  },
};
