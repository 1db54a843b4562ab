/**
 * The RADIUS server's statements on sessions, returning guests and usage, prepared once per repository
 * (prepared-query.ts): the compare-and-sets of a session's counters and, on PostgreSQL, the
 * statements that write a packet's whole effect in one round trip. radius.repository.ts runs them.
 */
import { type OnConflictBuilder, type Selectable, sql } from "kysely";
import type { DB } from "../db/database.js";
import { increment } from "../db/dialect.js";
import { NAMED_STATEMENT } from "../db/postgres-pool.js";
import { PreparedQuery } from "../db/prepared-query.js";
import type { Database, RadiusSessionsTable } from "../db/schema.js";
import { visitCountingCtes } from "../modules/guests/guest-activity.service.js";

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
export const STALE_SESSION_CAUSE = "Stale-Session";

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
        stopped_at: sql<string | null>`case when ${sql.ref("terminate_cause")} = ${STALE_SESSION_CAUSE} then null else ${sql.ref("stopped_at")} end`,
        terminate_cause: sql<string | null>`case when ${sql.ref("terminate_cause")} = ${STALE_SESSION_CAUSE} then null else ${sql.ref("terminate_cause")} end`,
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
export function counterMove(id: number, from: SessionCounters, to: SessionCounters, now: string) {
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

/** The prepared statements of one repository. */
export function radiusStatements() {
  return {
    macGuestUsage: new PreparedQuery(["accountId", "clientMac", "locationId", "day"], (db, p) =>
      db
        .selectFrom("guest_macs")
        .leftJoin("daily_usage", (join) =>
          join.onRef("daily_usage.guest_id", "=", "guest_macs.guest_id").on("daily_usage.location_id", "=", p.locationId).on("daily_usage.day", "=", p.day),
        )
        // A voucher's guest comes back only through the portal, where the code's time and limits are checked.
        .innerJoin("guests", "guests.id", "guest_macs.guest_id")
        // Whether the guest's visit of that day there is counted already (after a restart the memo is empty).
        .leftJoin("daily_visitors", (join) =>
          join.onRef("daily_visitors.guest_id", "=", "guest_macs.guest_id").on("daily_visitors.location_id", "=", p.locationId).on("daily_visitors.day", "=", p.day),
        )
        .select(["guest_macs.guest_id", "guest_macs.last_login_at", "daily_usage.octets"])
        .select(sql<number>`case when daily_visitors.guest_id is null then 0 else 1 end`.as("visited"))
        .where("guest_macs.account_id", "=", p.accountId)
        .where("guest_macs.client_mac", "=", p.clientMac)
        .where("guests.social_network", "<>", "Vuser"),
    ),
    // PostgreSQL: macGuestUsage of many MACs at once (their position in the arrays is `n`).
    macGuestUsageMany: new PreparedQuery(["accountIds", "clientMacs", "locationIds", "days"], (db, p) => ({
      compile: () =>
        sql`${sql.raw(NAMED_STATEMENT)}select k.n, m.guest_id, m.last_login_at, u.octets, case when v.guest_id is null then 0 else 1 end as visited
          from unnest(${p.accountIds}::integer[], ${p.clientMacs}::varchar[], ${p.locationIds}::integer[], ${p.days}::varchar[])
            with ordinality as k(account_id, client_mac, location_id, day, n)
          join guest_macs m on m.account_id = k.account_id and m.client_mac = k.client_mac
          join guests g on g.id = m.guest_id and g.social_network <> 'Vuser'
          left join daily_usage u on u.guest_id = m.guest_id and u.location_id = k.location_id and u.day = k.day
          left join daily_visitors v on v.guest_id = m.guest_id and v.location_id = k.location_id and v.day = k.day`.compile(db),
    })),
    guestByMac: new PreparedQuery(["accountId", "clientMac"], (db, p) =>
      db.selectFrom("guest_macs").select("guest_id").where("account_id", "=", p.accountId).where("client_mac", "=", p.clientMac),
    ),
    // PostgreSQL: guestByMac of many MACs at once (their position in the arrays is `n`).
    guestsByMacs: new PreparedQuery(["accountIds", "clientMacs"], (db, p) => ({
      compile: () =>
        sql`${sql.raw(NAMED_STATEMENT)}select k.n, m.guest_id
          from unnest(${p.accountIds}::integer[], ${p.clientMacs}::varchar[]) with ordinality as k(account_id, client_mac, n)
          join guest_macs m on m.account_id = k.account_id and m.client_mac = k.client_mac`.compile(db),
    })),
    // PostgreSQL: the open sessions of many (device, Acct-Session-Id) pairs at once (their position in
    // the arrays is `n`), and the visit of the day each one's guest makes at the location given with
    // its pair (its access point's, when the session is counted there), counted by the guests
    // module's rules in the same round trip.
    openSessionsCountingVisits: new PreparedQuery(["deviceIds", "acctSessionIds", "locationIds", "days"], (db, p) => ({
      compile: () =>
        sql`${sql.raw(NAMED_STATEMENT)}with k as (
            select * from unnest(${p.deviceIds}::integer[], ${p.acctSessionIds}::varchar[], ${p.locationIds}::integer[], ${p.days}::varchar[])
              with ordinality as k(device_id, acct_session_id, at_location, day, n)
          ), s as (
            select k.n, k.at_location, k.day, s.id, s.guest_id, s.location_id, s.framed_ip, s.session_time, s.input_octets, s.output_octets
            from k join radius_sessions s on s.device_id = k.device_id and s.acct_session_id = k.acct_session_id
            where s.stopped_at is null
          ), v as (
            select location_id, day, guest_id from s where guest_id is not null and location_id = at_location
          ), ${visitCountingCtes(db, "v")}
          select n, id, guest_id, location_id, framed_ip, session_time, input_octets, output_octets from s`.compile(db),
    })),
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
}
