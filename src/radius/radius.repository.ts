/**
 * SQL of the RADIUS server: portal credentials, returning guests, sessions and usage counters,
 * and the housekeeping that closes silent sessions and purges old ones.
 * What runs per packet is prepared once (prepared-query.ts); the rest is built per call.
 */
import { type Insertable, type OnConflictBuilder, type Selectable, sql } from "kysely";
import type { DB } from "../db/database.js";
import { dialectOf, increment } from "../db/dialect.js";
import type { Database, PortalCredentialsTable, RadiusSessionsTable } from "../db/schema.js";
import { NAMED_STATEMENT } from "../db/postgres-pool.js";
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
    advanceOpen: new PreparedQuery(ADVANCE_OPEN_KEYS, advanceOpen),
  };
}

const GUEST_TOTALS_KEYS = ["guestId", "sessionTime", "input", "output", "now"] as const;
const ADVANCE_OPEN_KEYS = ["id", "fromTime", "fromInput", "fromOutput", "toTime", "toInput", "toOutput", "now", "guestId"] as const;

/**
 * An open session whose address stays: the counters and updated_at only. Setting stopped_at or
 * framed_ip, even to what they were, rewrites the entries of the three partial indexes of open
 * sessions on SQLite. Also checks what a memo of the row relies on (open, same guest).
 */
function advanceOpen(db: DB, p: Record<(typeof ADVANCE_OPEN_KEYS)[number], never>) {
  return db
    .updateTable("radius_sessions")
    .set({ session_time: p.toTime, input_octets: p.toInput, output_octets: p.toOutput, updated_at: p.now })
    .where("id", "=", p.id)
    .where("session_time", "=", p.fromTime)
    .where("input_octets", "=", p.fromInput)
    .where("output_octets", "=", p.fromOutput)
    .where("stopped_at", "is", null)
    .where(sql<number>`coalesce(${sql.ref("guest_id")}, 0)`, "=", p.guestId);
}

/** What a packet adds to its guest's radius_* totals. */
function guestTotals(db: DB, p: Record<(typeof GUEST_TOTALS_KEYS)[number], never>) {
  return db
    .updateTable("guests")
    .set({
      radius_session_total_time: increment("radius_session_total_time", p.sessionTime),
      radius_total_bandwidth_input: increment("radius_total_bandwidth_input", p.input),
      radius_total_bandwidth_output: increment("radius_total_bandwidth_output", p.output),
      radius_session_first_datetime: sql<string>`coalesce(${sql.ref("radius_session_first_datetime")}, ${p.now})`,
      radius_session_last_datetime: p.now,
    })
    .where("id", "=", p.guestId);
}

/**
 * A new session, unless one with its key exists (a concurrent packet may have created it); only the
 * session's columns of `p` (the insert-and-credit statement passes more).
 */
function insertSession(db: DB, p: Record<(typeof SESSION_COLUMNS)[number], never>) {
  const row = Object.fromEntries(SESSION_COLUMNS.map((c) => [c, p[c]])) as Record<(typeof SESSION_COLUMNS)[number], never>;
  return db
    .insertInto("radius_sessions")
    .values(row)
    .onConflict((oc) => oc.columns(["device_id", "acct_session_id"]).doNothing());
}

/**
 * PostgreSQL: the CTEs `g` and `u` that credit a guest (guestTotals, and the day's usage, whose new
 * total `u` returns), run only when the statement's CTE `s` has a row (its session moved). The
 * parameters are cast: in a SELECT list PostgreSQL would take them for text.
 */
function creditCtes(db: DB, p: Record<(typeof GUEST_TOTALS_KEYS)[number] | "locationId" | "day" | "octets", never>) {
  return sql`g as (${guestTotals(db, p).where(sql<boolean>`exists (select 1 from s)`)}),
          u as (insert into daily_usage (guest_id, location_id, day, octets)
            select ${p.guestId}::integer, ${p.locationId}::integer, ${p.day}::varchar, ${p.octets}::bigint where exists (select 1 from s)
            on conflict (guest_id, location_id, day) do update set octets = daily_usage.octets + excluded.octets
            returning octets)`;
}

type UsageParams = Record<"guestId" | "locationId" | "day" | "octets", never>;
const usageRow = (p: UsageParams) => ({ guest_id: p.guestId, location_id: p.locationId, day: p.day, octets: p.octets });
/** The day's usage grows by the packet's octets (the insert when it is the guest's first of the day there). */
const addToUsage = (p: UsageParams) => (oc: OnConflictBuilder<Database, "daily_usage">) =>
  oc.columns(["guest_id", "location_id", "day"]).doUpdateSet({ octets: increment("daily_usage.octets", p.octets) });

/** The parameters of a compare-and-set of a session's counters from `from` to `to`. */
function counterMove(id: number, from: SessionCounters, to: SessionCounters, now: string) {
  return {
    id,
    fromTime: from.session_time,
    fromInput: from.input_octets,
    fromOutput: from.output_octets,
    toTime: to.session_time,
    toInput: to.input_octets,
    toOutput: to.output_octets,
    now,
  };
}

const CREDIT_MANY_KEYS = ["ids", "fromTimes", "fromInputs", "fromOutputs", "toTimes", "toInputs", "toOutputs", "nows", "guestIds", "locationIds", "days"] as const;

/** One packet of advanceOpenAndCreditMany: advanceOpenAndCredit's arguments. */
export interface CreditMove {
  session: { id: number; guest_id: number };
  from: SessionCounters;
  to: SessionCounters;
  now: string;
  credit: { delta: SessionCounters; locationId: number; day: string };
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
      db.insertInto("daily_usage").values(usageRow(p)).onConflict(addToUsage(p)).returning("octets"),
    ),
    findSession: new PreparedQuery(["deviceId", "acctSessionId"], (db, p) =>
      db.selectFrom("radius_sessions").selectAll().where("device_id", "=", p.deviceId).where("acct_session_id", "=", p.acctSessionId),
    ),
    insertSession: new PreparedQuery(SESSION_COLUMNS, (db, p) => insertSession(db, p).returningAll()),
    // SQLite: the row is what was inserted, with the id it got (see PreparedQuery.insert).
    insertSessionSqlite: new PreparedQuery(SESSION_COLUMNS, insertSession),
    ...advanceQueries(),
    addGuestTotals: new PreparedQuery(GUEST_TOTALS_KEYS, (db, p) => guestTotals(db, p)),
    // PostgreSQL: advanceOpen, and only when it moved the counters, the guest's totals and the day's
    // usage, in one statement (one round trip for an Interim-Update).
    advanceOpenAndCredit: new PreparedQuery([...ADVANCE_OPEN_KEYS, ...GUEST_TOTALS_KEYS, "locationId", "day", "octets"], (db, p) => ({
      compile: () =>
        sql`with s as (${advanceOpen(db, p).returning("id")}),
          ${creditCtes(db, p)}
          select (select count(*) from s)::integer as advanced, (select octets from u) as used`.compile(db),
    })),
    // PostgreSQL: findSession and guestByMac (what a session not found is given) in one round trip.
    findSessionAndMacGuest: new PreparedQuery(["deviceId", "acctSessionId", "accountId", "clientMac"], (db, p) => ({
      compile: () =>
        sql`select s.*, (select guest_id from guest_macs where account_id = ${p.accountId} and client_mac = ${p.clientMac}) as mac_guest_id
          from (select 1) one left join radius_sessions s on s.device_id = ${p.deviceId} and s.acct_session_id = ${p.acctSessionId}`.compile(db),
    })),
    // PostgreSQL: insertSession and, only when it inserted the row, the guest's totals and the day's
    // usage (addGuestTotalsAndUsage), in one statement: a session's first packet's write in one round trip.
    insertSessionAndCredit: new PreparedQuery([...SESSION_COLUMNS, ...GUEST_TOTALS_KEYS, "locationId", "day", "octets"], (db, p) => ({
      compile: () =>
        sql`${sql.raw(NAMED_STATEMENT)}with s as (${insertSession(db, p).returningAll()}),
          ${creditCtes(db, p)}
          select s.*, (select octets from u) as used from s`.compile(db),
    })),
    // PostgreSQL: advanceOpenAndCredit of a whole batch of packets in one statement, the packets as
    // arrays (one statement text whatever their number, so one named prepared statement). Several
    // packets of one guest or day add up before their row is written: a statement writes a row once.
    advanceOpenAndCreditMany: new PreparedQuery(CREDIT_MANY_KEYS, (db, p) => ({
      compile: () =>
        sql`${sql.raw(NAMED_STATEMENT)}with p as (
            select * from unnest(${p.ids}::integer[], ${p.fromTimes}::bigint[], ${p.fromInputs}::bigint[], ${p.fromOutputs}::bigint[],
              ${p.toTimes}::bigint[], ${p.toInputs}::bigint[], ${p.toOutputs}::bigint[], ${p.nows}::varchar[],
              ${p.guestIds}::integer[], ${p.locationIds}::integer[], ${p.days}::varchar[])
              as p(id, from_time, from_input, from_output, to_time, to_input, to_output, now, guest_id, location_id, day)),
          s as (update radius_sessions r
            set session_time = p.to_time, input_octets = p.to_input, output_octets = p.to_output, updated_at = p.now
            from p
            where r.id = p.id and r.session_time = p.from_time and r.input_octets = p.from_input and r.output_octets = p.from_output
              and r.stopped_at is null and coalesce(r.guest_id, 0) = p.guest_id
            returning p.*),
          g as (update guests set
              radius_session_total_time = radius_session_total_time + t.time,
              radius_total_bandwidth_input = radius_total_bandwidth_input + t.input,
              radius_total_bandwidth_output = radius_total_bandwidth_output + t.output,
              radius_session_first_datetime = coalesce(radius_session_first_datetime, t.first),
              radius_session_last_datetime = t.last
            from (select guest_id, sum(to_time - from_time) as time, sum(to_input - from_input) as input, sum(to_output - from_output) as output,
                min(now) as first, max(now) as last from s group by guest_id) t
            where guests.id = t.guest_id),
          u as (insert into daily_usage (guest_id, location_id, day, octets)
            select guest_id, location_id, day, sum(to_input - from_input + to_output - from_output) from s group by guest_id, location_id, day
            on conflict (guest_id, location_id, day) do update set octets = daily_usage.octets + excluded.octets
            returning guest_id, location_id, day, octets)
          select s.id, u.octets as used from s join u on u.guest_id = s.guest_id and u.location_id = s.location_id and u.day = s.day`.compile(db),
    })),
    // PostgreSQL: the guest's totals and the day's usage in one statement (one round trip fewer per packet).
    addGuestTotalsAndUsage: new PreparedQuery([...GUEST_TOTALS_KEYS, "locationId", "day", "octets"], (db, p) =>
      db.with("g", () => guestTotals(db, p)).insertInto("daily_usage").values(usageRow(p)).onConflict(addToUsage(p)).returning("octets"),
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
     * findSession and, for a session not found, findGuestByMac (the guest it is given): one
     * statement on PostgreSQL.
     */
    async findSessionOrMacGuest(
      db: DB,
      session: { deviceId: number; acctSessionId: string },
      mac: { accountId: number; clientMac: string },
    ): Promise<{ session: SessionRow | undefined; macGuestId: number | undefined }> {
      if (dialectOf(db) !== "postgres") {
        const found = await this.findSession(db, session.deviceId, session.acctSessionId);
        return { session: found, macGuestId: found ? undefined : await this.findGuestByMac(db, mac.accountId, mac.clientMac) };
      }
      const row = await q.findSessionAndMacGuest.first<SessionRow & { mac_guest_id: number | null }>(db, { ...session, ...mac });
      const { mac_guest_id, ...found } = row!;
      return { session: found.id === null ? undefined : found, macGuestId: mac_guest_id ?? undefined };
    },

    /**
     * insertSession and, when it inserted the row, addGuestTotalsAndUsage of the credit for its
     * guest (one statement on PostgreSQL): the new row and the day's new total, or undefined when
     * the session already existed (nothing credited).
     */
    async insertSessionAndCredit(
      db: DB,
      values: NewSession & { guest_id: number },
      credit: { delta: SessionCounters; locationId: number; day: string },
    ): Promise<{ row: SessionRow; used: number } | undefined> {
      const { delta, locationId, day } = credit;
      const now = values.updated_at;
      if (dialectOf(db) !== "postgres") {
        const row = await this.insertSession(db, values);
        return row && { row, used: await this.addGuestTotalsAndUsage(db, values.guest_id, delta, now, locationId, day) };
      }
      const totals = { guestId: values.guest_id, sessionTime: delta.session_time, input: delta.input_octets, output: delta.output_octets, now };
      const row = await q.insertSessionAndCredit.writeReturning<SessionRow & { used: number | string }>(db, {
        ...values,
        ...totals,
        locationId,
        day,
        octets: delta.input_octets + delta.output_octets,
      });
      if (!row) return undefined;
      const { used, ...inserted } = row;
      return { row: inserted, used: Number(used) };
    },

    /**
     * Creates the session unless it exists (a concurrent packet may have created it): the new row,
     * or undefined when it already existed.
     */
    async insertSession(db: DB, values: NewSession): Promise<SessionRow | undefined> {
      if (dialectOf(db) === "postgres") return q.insertSession.writeReturning<SessionRow>(db, values);
      const { inserted, id } = await q.insertSessionSqlite.insert(db, values);
      return inserted === 1 ? { ...values, id, terminate_cause: null } : undefined;
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
      const values = { ...counterMove(id, from, to, now), framedIp };
      const changed = stop ? await q.advanceAndStop.run(db, { ...values, cause: stop.terminateCause }) : await q.advance.run(db, values);
      return changed === 1;
    },

    /**
     * advanceSession for a session that is open (and stays so) with this guest and address: false
     * also when it was closed or handed to another guest meanwhile (read it again).
     */
    async advanceOpenSession(db: DB, session: { id: number; guest_id: number | null }, from: SessionCounters, to: SessionCounters, now: string): Promise<boolean> {
      const changed = await q.advanceOpen.run(db, { ...counterMove(session.id, from, to, now), guestId: session.guest_id ?? 0 });
      return changed === 1;
    },

    /**
     * advanceOpenSession, then (when it moved the counters) addGuestTotalsAndUsage of what grew for
     * the session's guest: one statement on PostgreSQL. `used`: the day's new total.
     */
    async advanceOpenAndCredit(
      db: DB,
      session: { id: number; guest_id: number },
      from: SessionCounters,
      to: SessionCounters,
      now: string,
      credit: { delta: SessionCounters; locationId: number; day: string },
    ): Promise<{ advanced: boolean; used: number }> {
      const { delta, locationId, day } = credit;
      if (dialectOf(db) !== "postgres") {
        if (!(await this.advanceOpenSession(db, session, from, to, now))) return { advanced: false, used: 0 };
        return { advanced: true, used: await this.addGuestTotalsAndUsage(db, session.guest_id, delta, now, locationId, day) };
      }
      const row = await q.advanceOpenAndCredit.writeReturning<{ advanced: number; used: number | null }>(db, {
        ...counterMove(session.id, from, to, now),
        guestId: session.guest_id,
        sessionTime: delta.session_time,
        input: delta.input_octets,
        output: delta.output_octets,
        locationId,
        day,
        octets: delta.input_octets + delta.output_octets,
      });
      return { advanced: Number(row?.advanced ?? 0) === 1, used: Number(row?.used ?? 0) };
    },

    /** Whether advanceOpenAndCreditMany is one statement, all or nothing outside a transaction too (PostgreSQL). */
    creditsInOneStatement(db: DB): boolean {
      return dialectOf(db) === "postgres";
    },

    /**
     * advanceOpenAndCredit of each move, in order (on PostgreSQL in one statement; at most one move
     * per session): per move, the day's new total of its guest as of that move (what a cap is judged
     * on, as if the moves ran one after the other), or undefined when its counters were not advanced.
     */
    async advanceOpenAndCreditMany(db: DB, moves: CreditMove[]): Promise<(number | undefined)[]> {
      if (dialectOf(db) !== "postgres") {
        const used: (number | undefined)[] = [];
        for (const m of moves) {
          const moved = await this.advanceOpenAndCredit(db, m.session, m.from, m.to, m.now, m.credit);
          used.push(moved.advanced ? moved.used : undefined);
        }
        return used;
      }
      const rows = await q.advanceOpenAndCreditMany.writeReturningAll<{ id: number; used: number | string }>(db, {
        ids: moves.map((m) => m.session.id),
        fromTimes: moves.map((m) => m.from.session_time),
        fromInputs: moves.map((m) => m.from.input_octets),
        fromOutputs: moves.map((m) => m.from.output_octets),
        toTimes: moves.map((m) => m.to.session_time),
        toInputs: moves.map((m) => m.to.input_octets),
        toOutputs: moves.map((m) => m.to.output_octets),
        nows: moves.map((m) => m.now),
        guestIds: moves.map((m) => m.session.guest_id),
        locationIds: moves.map((m) => m.credit.locationId),
        days: moves.map((m) => m.credit.day),
      });
      const final = new Map(rows.map((r) => [Number(r.id), Number(r.used)]));
      // The statement gives each day's total after all its moves; a move's own is that less what later moves added.
      const later = new Map<string, number>();
      const used: (number | undefined)[] = new Array(moves.length);
      for (let i = moves.length - 1; i >= 0; i--) {
        const m = moves[i];
        const total = final.get(m.session.id);
        if (total === undefined) continue;
        const day = `${m.session.guest_id}|${m.credit.locationId}|${m.credit.day}`;
        const after = later.get(day) ?? 0;
        used[i] = total - after;
        later.set(day, after + m.credit.delta.input_octets + m.credit.delta.output_octets);
      }
      return used;
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

    /**
     * addGuestTotals and addUsage of the delta's octets, in one statement on PostgreSQL (SQLite runs
     * no statement across tables, and has no round trip to save): the day's new total.
     */
    async addGuestTotalsAndUsage(db: DB, guestId: number, delta: SessionCounters, now: string, locationId: number, day: string): Promise<number> {
      const octets = delta.input_octets + delta.output_octets;
      if (dialectOf(db) !== "postgres") {
        await this.addGuestTotals(db, guestId, delta, now);
        return this.addUsage(db, guestId, locationId, day, octets);
      }
      const values = { guestId, sessionTime: delta.session_time, input: delta.input_octets, output: delta.output_octets, now, locationId, day, octets };
      const row = await q.addGuestTotalsAndUsage.writeReturning<{ octets: number }>(db, values);
      return Number(row?.octets ?? 0);
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
