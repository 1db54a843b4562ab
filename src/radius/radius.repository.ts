/**
 * SQL of the RADIUS server: portal credentials, returning guests, sessions and usage counters,
 * and the housekeeping that closes silent sessions and purges old ones.
 * What runs per packet is prepared once (prepared-query.ts); the rest is built per call.
 */
import { type Insertable, type Selectable, sql } from "kysely";
import type { DB } from "../db/database.js";
import { increment } from "../db/dialect.js";
import type { PortalCredentialsTable, RadiusSessionsTable } from "../db/schema.js";
import { PreparedQuery } from "../db/prepared-query.js";
import { ReadCache } from "../db/read-cache.js";
import type { Ctx } from "../modules/context.js";

export type CredentialRow = Selectable<PortalCredentialsTable>;
export type SessionRow = Selectable<RadiusSessionsTable>;

export interface SessionCounters {
  session_time: number;
  input_octets: number;
  output_octets: number;
}

const SESSION_COLUMNS = [
  "device_id",
  "guest_id",
  "location_id",
  "acct_session_id",
  "username",
  "client_mac",
  "started_at",
  "updated_at",
  "stopped_at",
  "session_time",
  "input_octets",
  "output_octets",
  "framed_ip",
  "nas_ip",
] as const;

export type NewSession = { [C in (typeof SESSION_COLUMNS)[number]]: Selectable<RadiusSessionsTable>[C] };

/** Acct-Terminate-Cause housekeeping gives a session whose gateway went silent (housekeeping.ts). */
const STALE_CAUSE = "Stale-Session";

/** The compare-and-set of a session's counters, without and with closing it (Stop). */
function advanceQueries() {
  const keys = ["id", "fromTime", "fromInput", "fromOutput", "toTime", "toInput", "toOutput", "now", "framedIp"] as const;
  const advance = (db: DB, p: Record<(typeof keys)[number], never>) =>
    db
      .updateTable("radius_sessions")
      .set({
        session_time: p.toTime,
        input_octets: p.toInput,
        output_octets: p.toOutput,
        updated_at: p.now,
        // The address can arrive after the Start (DHCP) or change; a packet without one keeps the last.
        framed_ip: sql<string | null>`coalesce(${p.framedIp}, ${sql.ref("framed_ip")})`,
      })
      .where("id", "=", p.id)
      .where("session_time", "=", p.fromTime)
      .where("input_octets", "=", p.fromInput)
      .where("output_octets", "=", p.fromOutput);
  return {
    // A packet for a session housekeeping closed as stale opens it again: the gateway still has it.
    advance: new PreparedQuery(keys, (db, p) =>
      advance(db, p).set({
        stopped_at: sql<string | null>`case when ${sql.ref("terminate_cause")} = ${STALE_CAUSE} then null else ${sql.ref("stopped_at")} end`,
        terminate_cause: sql<string | null>`case when ${sql.ref("terminate_cause")} = ${STALE_CAUSE} then null else ${sql.ref("terminate_cause")} end`,
      }),
    ),
    advanceAndStop: new PreparedQuery([...keys, "cause"], (db, p) => advance(db, p).set({ stopped_at: p.now, terminate_cause: p.cause })),
  };
}

interface MacGuestRow {
  guest_id: number;
  last_login_at: string;
  octets: number | null;
}

/** The RADIUS server's SQL, with its prepared statements and the returning-guest cache: one per app. */
export function createRadiusRepository() {
  const q = {
    findCredential: new PreparedQuery(["username"], (db, p) => db.selectFrom("portal_credentials").selectAll().where("username", "=", p.username)),
    consumeCredential: new PreparedQuery(["id", "now"], (db, p) =>
      db.updateTable("portal_credentials").set({ used_at: p.now }).where("id", "=", p.id).where("used_at", "is", null).where("expires_at", ">", p.now),
    ),
    macGuestUsage: new PreparedQuery(["accountId", "clientMac", "locationId", "day"], (db, p) =>
      db
        .selectFrom("guest_macs")
        .leftJoin("daily_usage", (join) =>
          join.onRef("daily_usage.guest_id", "=", "guest_macs.guest_id").on("daily_usage.location_id", "=", p.locationId).on("daily_usage.day", "=", p.day),
        )
        // A voucher's guest comes back only through the portal, where the code's time and limits are checked.
        .innerJoin("guests", "guests.id", "guest_macs.guest_id")
        .select(["guest_macs.guest_id", "guest_macs.last_login_at", "daily_usage.octets"])
        .where("guest_macs.account_id", "=", p.accountId)
        .where("guest_macs.client_mac", "=", p.clientMac)
        .where("guests.social_network", "<>", "Vuser"),
    ),
    guestByMac: new PreparedQuery(["accountId", "clientMac"], (db, p) =>
      db.selectFrom("guest_macs").select("guest_id").where("account_id", "=", p.accountId).where("client_mac", "=", p.clientMac),
    ),
    usageOn: new PreparedQuery(["guestId", "locationId", "day"], (db, p) =>
      db.selectFrom("daily_usage").select("octets").where("guest_id", "=", p.guestId).where("location_id", "=", p.locationId).where("day", "=", p.day),
    ),
    addUsage: new PreparedQuery(["guestId", "locationId", "day", "octets"], (db, p) =>
      db
        .insertInto("daily_usage")
        .values({ guest_id: p.guestId, location_id: p.locationId, day: p.day, octets: p.octets })
        .onConflict((oc) => oc.columns(["guest_id", "location_id", "day"]).doUpdateSet({ octets: increment("daily_usage.octets", p.octets) }))
        .returning("octets"),
    ),
    findSession: new PreparedQuery(["deviceId", "acctSessionId"], (db, p) =>
      db.selectFrom("radius_sessions").selectAll().where("device_id", "=", p.deviceId).where("acct_session_id", "=", p.acctSessionId),
    ),
    insertSession: new PreparedQuery(SESSION_COLUMNS, (db, p) =>
      db
        .insertInto("radius_sessions")
        .values(p)
        .onConflict((oc) => oc.columns(["device_id", "acct_session_id"]).doNothing())
        .returningAll(),
    ),
    ...advanceQueries(),
    addGuestTotals: new PreparedQuery(["guestId", "sessionTime", "input", "output", "now"], (db, p) =>
      db
        .updateTable("guests")
        .set({
          radius_session_total_time: increment("radius_session_total_time", p.sessionTime),
          radius_total_bandwidth_input: increment("radius_total_bandwidth_input", p.input),
          radius_total_bandwidth_output: increment("radius_total_bandwidth_output", p.output),
          radius_session_first_datetime: sql<string>`coalesce(${sql.ref("radius_session_first_datetime")}, ${p.now})`,
          radius_session_last_datetime: p.now,
        })
        .where("id", "=", p.guestId),
    ),
  };

  /**
   * MAC authentications repeat (every reconnect, every roam between access points): while nothing
   * at all is written, the guest and the day's usage come from memory (see ReadCache). Any write,
   * accounting included, empties it, so a cap is never judged on old usage.
   */
  const macGuests = new ReadCache<string, MacGuestRow>(50_000);

  return {
    async insertCredential(db: DB, values: Insertable<PortalCredentialsTable>): Promise<void> {
      await db.insertInto("portal_credentials").values(values).execute();
    },

    /**
     * PostgreSQL: insertCredential as a CTE of a login's statement (recordLogin's companion), for
     * the guest of its CTE `g`: the columns `cols` read from `p` by name.
     */
    credentialCte(p: Record<string, never>, cols: string[]) {
      const integer = (k: string) => k === "device_id" || k === "location_id" || k === "voucher_id";
      return sql`pc as (
      insert into portal_credentials (${sql.join(cols.map((k) => sql.ref(k)))}, guest_id)
      select ${sql.join(cols.map((k) => sql`${p[k]}::${sql.raw(integer(k) ? "integer" : "varchar")}`))}, g.id from g
    )`;
    },

    /** Erasure of a guest (docs/guest-data.md): its credentials carry its MAC. */
    async deleteGuestCredentials(db: DB, guestId: number): Promise<void> {
      await db.deleteFrom("portal_credentials").where("guest_id", "=", guestId).execute();
    },

    async findCredential(db: DB, username: string): Promise<CredentialRow | undefined> {
      return q.findCredential.first<CredentialRow>(db, { username });
    },

    /** Marks the credential used if it is still unused and fresh; false when another request got there first. */
    async consumeCredential(db: DB, id: number, now: string): Promise<boolean> {
      return (await q.consumeCredential.run(db, { id, now })) === 1;
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
      query: { accountId: number; clientMac: string; since: string; locationId: number; day: string },
    ): Promise<{ guestId: number; usedOctets: number } | undefined> {
      const { accountId, clientMac, locationId, day } = query;
      const key = `${accountId}|${clientMac}|${locationId}|${day}`;
      const row =
        macGuests.get(db, key) ?? (await macGuests.load(db, key, () => q.macGuestUsage.first<MacGuestRow>(db, { accountId, clientMac, locationId, day })));
      if (!row || row.last_login_at < query.since) return undefined;
      return { guestId: row.guest_id, usedOctets: Number(row.octets ?? 0) };
    },

    /** The guest behind a client MAC in this account, however long ago (accounting counts them all). */
    async findGuestByMac(db: DB, accountId: number, clientMac: string): Promise<number | undefined> {
      const row = await q.guestByMac.first<{ guest_id: number }>(db, { accountId, clientMac });
      return row?.guest_id;
    },

    async usageOn(db: DB, guestId: number, locationId: number, day: string): Promise<number> {
      const row = await q.usageOn.first<{ octets: number }>(db, { guestId, locationId, day });
      return row ? Number(row.octets) : 0;
    },

    /** Adds to the guest's usage of the day at the location; returns the day's new total (what a cap is judged on). */
    async addUsage(db: DB, guestId: number, locationId: number, day: string, octets: number): Promise<number> {
      const row = await q.addUsage.writeReturning<{ octets: number }>(db, { guestId, locationId, day, octets });
      return Number(row?.octets ?? 0);
    },

    async findSession(db: DB, deviceId: number, acctSessionId: string): Promise<SessionRow | undefined> {
      return q.findSession.first<SessionRow>(db, { deviceId, acctSessionId });
    },

    /**
     * Creates the session with zero counters unless it exists (a concurrent packet may have created
     * it): the new row, or undefined when it already existed.
     */
    async insertSession(db: DB, values: NewSession): Promise<SessionRow | undefined> {
      return q.insertSession.writeReturning<SessionRow>(db, values);
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
      framedIp: string | null = null,
    ): Promise<boolean> {
      const values = {
        id,
        fromTime: from.session_time,
        fromInput: from.input_octets,
        fromOutput: from.output_octets,
        toTime: to.session_time,
        toInput: to.input_octets,
        toOutput: to.output_octets,
        now,
        framedIp,
      };
      const changed = stop ? await q.advanceAndStop.run(db, { ...values, cause: stop.terminateCause }) : await q.advance.run(db, values);
      return changed === 1;
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
      await q.addGuestTotals.run(db, { guestId, sessionTime: delta.session_time, input: delta.input_octets, output: delta.output_octets, now });
    },

    /** Housekeeping: closes open sessions last heard of before `silentSince`, as of that last time. */
    async closeSilentSessions(db: DB, silentSince: string, cause: string): Promise<number> {
      const res = await db
        .updateTable("radius_sessions")
        .set({ stopped_at: sql<string>`${sql.ref("updated_at")}`, terminate_cause: cause })
        .where("stopped_at", "is", null)
        .where("updated_at", "<", silentSince)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },

    /** Housekeeping: deletes sessions closed before `stoppedBefore`. */
    async purgeClosedSessions(db: DB, stoppedBefore: string): Promise<number> {
      const res = await db.deleteFrom("radius_sessions").where("stopped_at", "is not", null).where("stopped_at", "<", stoppedBefore).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type RadiusRepository = ReturnType<typeof createRadiusRepository>;

/** What the RADIUS services take: the modules' context and the RADIUS repository of the same app. */
export interface RadiusCtx extends Ctx {
  readonly radius: RadiusRepository;
}
