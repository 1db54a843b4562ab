/**
 * SQL of the RADIUS server: returning guests, sessions and usage counters, and the housekeeping
 * that closes silent sessions and purges old ones; portal credentials' SQL is spread in from
 * portal-credentials.repository.ts.
 * What runs per packet is prepared once (radius-statements.ts); the rest is built per call.
 */
import { type Selectable, sql } from "kysely";
import type { DB } from "../db/database.js";
import { dialectOf } from "../db/dialect.js";
import type { RadiusSessionsTable } from "../db/schema.js";
import { createBatchedReader } from "../db/batched-reader.js";
import { ReadCache } from "../db/read-cache.js";
import type { Ctx } from "../modules/context.js";
import { type Visit, countVisits } from "../modules/guests/guest-activity.service.js";
import { portalCredentialQueries } from "./portal-credentials.repository.js";
import { type CreditMove, type NewSession, type SessionCounters, counterMove, radiusStatements } from "./radius-statements.js";
import { type KnownSession, knownSession } from "./session-memo.js";

export type SessionRow = Selectable<RadiusSessionsTable>;

interface MacGuestRow {
  guest_id: number;
  last_login_at: string;
  octets: number | null;
  /** 1 when the guest's visit of the day at the location is counted already. */
  visited: number;
}

/** How findGuestsByMacs keys its answers: a client MAC within an account. */
export const macInAccount = (accountId: number, clientMac: string | undefined) => `${accountId}|${clientMac}`;

/** A returning guest's look-up: the MAC in the account, and the location and day of the usage wanted. */
interface MacKey {
  accountId: number;
  clientMac: string;
  locationId: number;
  day: string;
}

/** The RADIUS server's SQL, with its prepared statements and the returning-guest cache: one per app. */
export function createRadiusRepository() {
  const q = radiusStatements();

  /**
   * MAC authentications repeat (every reconnect, every roam between access points): while nothing
   * at all is written, the guest and the day's usage come from memory (see ReadCache). Any write,
   * accounting included, empties it, so a cap is never judged on old usage.
   */
  const macGuests = new ReadCache<string, MacGuestRow>(50_000);
  /**
   * PostgreSQL, where the cache above holds nothing (other instances write): the MAC
   * authentications of one poll round read their guests in one statement (batched-reader.ts).
   */
  const macReaders = new WeakMap<DB, (key: MacKey) => Promise<MacGuestRow | undefined>>();
  const macReader = (db: DB) => {
    let read = macReaders.get(db);
    if (!read) {
      read = createBatchedReader<MacKey, MacGuestRow | undefined>(async (keys) => {
        const rows = await q.macGuestUsageMany.all<MacGuestRow & { n: number | string }>(db, {
          accountIds: keys.map((k) => k.accountId),
          clientMacs: keys.map((k) => k.clientMac),
          locationIds: keys.map((k) => k.locationId),
          days: keys.map((k) => k.day),
        });
        const found: (MacGuestRow | undefined)[] = new Array(keys.length);
        for (const { n, ...row } of rows) found[Number(n) - 1] = row;
        return found;
      });
      macReaders.set(db, read);
    }
    return read;
  };

  return {
    ...portalCredentialQueries(),

    /**
     * A returning guest (portal login from this MAC since `since`) and, in the same query, the
     * octets they used at the location on `day` (0 when none) and whether their visit of that day
     * there is counted already.
     */
    async findReturningGuestUsage(
      db: DB,
      query: { accountId: number; clientMac: string; since: string; locationId: number; day: string },
    ): Promise<{ guestId: number; usedOctets: number; visitCounted: boolean } | undefined> {
      const { accountId, clientMac, locationId, day } = query;
      const key = `${accountId}|${clientMac}|${locationId}|${day}`;
      const read = dialectOf(db) === "postgres" && !db.isTransaction ? () => macReader(db)(query) : () => q.macGuestUsage.first<MacGuestRow>(db, query);
      const row = macGuests.get(db, key) ?? (await macGuests.load(db, key, read));
      if (!row || row.last_login_at < query.since) return undefined;
      return { guestId: row.guest_id, usedOctets: Number(row.octets ?? 0), visitCounted: Number(row.visited) === 1 };
    },

    /** The guest behind a client MAC in this account, however long ago (accounting counts them all). */
    async findGuestByMac(db: DB, accountId: number, clientMac: string): Promise<number | undefined> {
      const row = await q.guestByMac.first<{ guest_id: number }>(db, { accountId, clientMac });
      return row?.guest_id;
    },

    /**
     * findGuestByMac of many MACs, keyed by macInAccount (undefined: no guest): one statement
     * on PostgreSQL.
     */
    async findGuestsByMacs(db: DB, macs: { accountId: number; clientMac: string }[]): Promise<Map<string, number | undefined>> {
      const found = new Map<string, number | undefined>();
      if (macs.length === 0) return found;
      if (dialectOf(db) !== "postgres") {
        for (const m of macs) found.set(macInAccount(m.accountId, m.clientMac), await this.findGuestByMac(db, m.accountId, m.clientMac));
        return found;
      }
      const rows = await q.guestsByMacs.all<{ n: number | string; guest_id: number }>(db, {
        accountIds: macs.map((m) => m.accountId),
        clientMacs: macs.map((m) => m.clientMac),
      });
      for (const m of macs) found.set(macInAccount(m.accountId, m.clientMac), undefined);
      for (const r of rows) {
        const m = macs[Number(r.n) - 1];
        found.set(macInAccount(m.accountId, m.clientMac), r.guest_id);
      }
      return found;
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
     * The open sessions among these keys, in their order (undefined: none open), and the visits
     * their guests make: for each session found whose guest is known and whose location is its
     * key's `at`, the guest's visit of `at.day` there, counted (countVisits) unless `counted` says
     * it was already. PostgreSQL reads and counts in one statement (its ON CONFLICT skips what was
     * counted); SQLite runs findSession each, then countVisits. Returns the visits it saw, counted
     * now or before, for the caller to remember.
     */
    async recallOpenSessions(
      db: DB,
      keys: { deviceId: number; acctSessionId: string; at: { locationId: number; day: string } | undefined }[],
      counted: (v: Visit) => boolean,
    ): Promise<{ found: (KnownSession | undefined)[]; visits: Visit[] }> {
      const found: (KnownSession | undefined)[] = new Array(keys.length);
      const visits: Visit[] = [];
      const visitOf = (i: number, s: KnownSession | undefined) => {
        const at = keys[i].at;
        if (s && s.guest_id !== null && at && s.location_id === at.locationId) visits.push({ locationId: at.locationId, day: at.day, guestId: s.guest_id });
      };
      if (keys.length === 0) return { found, visits };
      if (dialectOf(db) !== "postgres") {
        for (let i = 0; i < keys.length; i++) {
          const row = await this.findSession(db, keys[i].deviceId, keys[i].acctSessionId);
          if (!row || row.stopped_at !== null) continue;
          found[i] = knownSession(row);
          visitOf(i, found[i]);
        }
        await countVisits(db, visits.filter((v) => !counted(v)));
        return { found, visits };
      }
      const rows = await q.openSessionsCountingVisits.all<SessionRow & { n: number | string }>(db, {
        deviceIds: keys.map((k) => k.deviceId),
        acctSessionIds: keys.map((k) => k.acctSessionId),
        locationIds: keys.map((k) => k.at?.locationId ?? null),
        days: keys.map((k) => k.at?.day ?? null),
      });
      for (const row of rows) {
        const i = Number(row.n) - 1;
        found[i] = knownSession(row);
        visitOf(i, found[i]);
      }
      return { found, visits };
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
