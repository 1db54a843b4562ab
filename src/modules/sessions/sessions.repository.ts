/** Live sessions: RADIUS sessions still open that their gateway reported on recently. */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { sql } from "kysely";
import type { DB } from "../../db/database.js";
import { dialectOf } from "../../db/dialect.js";
import { NAMED_STATEMENT } from "../../db/postgres-pool.js";
import { PreparedQuery, selectArrays } from "../../db/prepared-query.js";

export interface LiveSessionRow {
  id: number;
  location_id: number;
  guest_id: number | null;
  guest_name: string | null;
  guest_email: string | null;
  client_mac: string;
  framed_ip: string | null;
  device_id: number;
  device_name: string;
  device_mac: string;
  started_at: string;
  updated_at: string;
  session_time: number | string;
  input_octets: number | string;
  output_octets: number | string;
}

/** The columns of a LiveSessionRow, in the order readLiveRows maps them. */
const LIVE_COLUMNS = [
  "s.id",
  "s.location_id",
  "s.guest_id",
  "g.full_name as guest_name",
  "g.email as guest_email",
  "s.client_mac",
  "s.framed_ip",
  "s.device_id",
  "d.name as device_name",
  "d.mac_address as device_mac",
  "s.started_at",
  "s.updated_at",
  "s.session_time",
  "s.input_octets",
  "s.output_octets",
] as const;

export interface OwnedSessionRow {
  id: number;
  device_id: number;
  location_id: number | null;
  guest_id: number | null;
  stopped_at: string | null;
}

/** The latest open RADIUS session at the location from this address (Framed-IP-Address). */
function openByAddressQuery(db: DB, p: Record<"locationId" | "ip", never>) {
  return db
    .selectFrom("radius_sessions")
    .select(["guest_id", "started_at", "updated_at", "session_time"])
    .where("location_id", "=", p.locationId)
    .where("framed_ip", "=", p.ip)
    .where("stopped_at", "is", null)
    .orderBy("id", "desc")
    .limit(1);
}

/** The grant of this address at the location that ends last, if it has not ended by `now`. */
function grantByAddressQuery(db: DB, p: Record<"locationId" | "ip" | "now", never>) {
  return db
    .selectFrom("portal_grants")
    .select("expires_at")
    .where("location_id", "=", p.locationId)
    .where("client_ip", "=", p.ip)
    .where("expires_at", ">", p.now)
    .orderBy("expires_at", "desc")
    .limit(1);
}

/**
 * Sessions read per turn of the event loop on SQLite. A page holds up to 5,000 sessions. Read,
 * mapped and answered at once, a page of 1,000 held the one thread for about 18 ms (a synchronous
 * read), and every RADIUS packet that came meanwhile waited that long (docs/operations.md, "What
 * holds RADIUS back outside the burst"). In chunks, a packet waits for one chunk at most: about
 * 2 ms for 500 sessions read and serialised here.
 */
export const LIVE_SESSION_CHUNK = 500;

/** One read of live sessions, as arrays (a page is up to 5,000 rows; see selectArrays) in the order of LIVE_COLUMNS. */
async function readLiveRows(db: DB, locationIds: number[], heardSince: string, afterId: number, limit: number): Promise<LiveSessionRow[]> {
  const rows = await selectArrays(
    db,
    db
      .selectFrom("radius_sessions as s")
      .innerJoin("devices as d", "d.id", "s.device_id")
      .leftJoin("guests as g", "g.id", "s.guest_id")
      .select(LIVE_COLUMNS)
      .where("s.location_id", "in", locationIds)
      .where("s.stopped_at", "is", null)
      .where("s.updated_at", ">=", heardSince)
      .where("s.id", ">", afterId)
      .orderBy("s.id")
      .limit(limit),
  );
  return rows.map((r) => ({
    id: r[0] as number,
    location_id: r[1] as number,
    guest_id: r[2] as number | null,
    guest_name: r[3] as string | null,
    guest_email: r[4] as string | null,
    client_mac: r[5] as string,
    framed_ip: r[6] as string | null,
    device_id: r[7] as number,
    device_name: r[8] as string,
    device_mac: r[9] as string,
    started_at: r[10] as string,
    updated_at: r[11] as string,
    session_time: r[12] as number | string,
    input_octets: r[13] as number | string,
    output_octets: r[14] as number | string,
  }));
}

export function createSessionRepository() {
  const openByAddress = new PreparedQuery(["locationId", "ip"], openByAddressQuery);
  const grantByAddress = new PreparedQuery(["locationId", "ip", "now"], grantByAddressQuery);
  // PostgreSQL: both in one statement, a row always (nulls where there is none).
  const byAddress = new PreparedQuery(["locationId", "ip", "now"], (db, p) => ({
    compile: () =>
      sql`${sql.raw(NAMED_STATEMENT)}select s.guest_id, s.started_at, s.updated_at, s.session_time, g.expires_at as grant_expires_at
        from (select 1) one
        left join lateral (${openByAddressQuery(db, p)}) s on true
        left join lateral (${grantByAddressQuery(db, p)}) g on true`.compile(db),
  }));
  return {
    /** RADIUS sessions among `ids` reported by a device of the account. */
    async findOwned(db: DB, accountId: number, ids: number[]): Promise<OwnedSessionRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom("radius_sessions as s")
        .innerJoin("devices as d", "d.id", "s.device_id")
        .select(["s.id", "s.device_id", "s.location_id", "s.guest_id", "s.stopped_at"])
        .where("d.account_id", "=", accountId)
        .where("s.id", "in", ids)
        .orderBy("s.id")
        .execute();
    },

    /** The latest CoA and Disconnect requests of a session, newest first. */
    async coaRequestsOf(db: DB, sessionId: number, limit: number) {
      return db
        .selectFrom("coa_requests")
        .select(["id", "kind", "reason", "nas_address", "nas_port", "requested_at", "finished_at", "result", "error_cause", "attempts"])
        .where("session_id", "=", sessionId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },

    /**
     * Up to `count` open sessions at these locations heard from since `heardSince`, by id after
     * `afterId`, handed to `each` in id order, a chunk at a time. SQLite reads on the event loop's
     * thread: there a chunk is LIVE_SESSION_CHUNK rows and the loop runs between chunks. PostgreSQL
     * reads in the server: one statement, one round trip.
     */
    async readLive(db: DB, locationIds: number[], heardSince: string, afterId: number, count: number, each: (rows: LiveSessionRow[]) => void): Promise<void> {
      if (locationIds.length === 0) return;
      const chunk = dialectOf(db) === "sqlite" ? LIVE_SESSION_CHUNK : count;
      let after = afterId;
      for (let left = count; left > 0; ) {
        const want = Math.min(chunk, left);
        const rows = await readLiveRows(db, locationIds, heardSince, after, want);
        if (rows.length > 0) each(rows);
        if (rows.length < want) return;
        left -= rows.length;
        after = rows[rows.length - 1].id;
        if (left > 0) await yieldToEventLoop();
      }
    },

    /**
     * What the RFC 8908 API knows of an address at a location: its latest open RADIUS session
     * (Framed-IP-Address) and the grant of it that ends last, if that has not ended by `now`. Every
     * poll of every device asks: one prepared statement on PostgreSQL (one round trip), two on
     * SQLite (no round trip to save).
     */
    async findByAddress(db: DB, locationId: number, ip: string, now: string): Promise<{ session: OpenSessionRow | undefined; grant: { expires_at: string } | undefined }> {
      const values = { locationId, ip, now };
      if (dialectOf(db) === "postgres") {
        type Row = { [K in keyof OpenSessionRow]: OpenSessionRow[K] | null } & { grant_expires_at: string | null };
        const row = await byAddress.first<Row>(db, values);
        const { grant_expires_at: grantEnds, ...s } = row ?? { grant_expires_at: null, started_at: null };
        const session = s.started_at === null ? undefined : (s as OpenSessionRow);
        return { session, grant: grantEnds === null ? undefined : { expires_at: grantEnds } };
      }
      return { session: await openByAddress.first<OpenSessionRow>(db, values), grant: await grantByAddress.first<{ expires_at: string }>(db, values) };
    },

    /** Octets the guest used at the location on its local day (counted by RADIUS accounting). */
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

    async insertGrant(db: DB, grant: { location_id: number; client_ip: string; client_mac: string; granted_at: string; expires_at: string }): Promise<void> {
      await db.deleteFrom("portal_grants").where("expires_at", "<", grant.granted_at).execute();
      await db.insertInto("portal_grants").values(grant).execute();
    },
  };
}

export interface OpenSessionRow {
  guest_id: number | null;
  started_at: string;
  updated_at: string;
  session_time: number | string;
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
