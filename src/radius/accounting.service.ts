/**
 * What accounting means for guests: sessions keyed by (device, Acct-Session-Id); the NAS reports
 * absolute counters, so each packet adds only what grew since the stored values to the guest's
 * radius_* totals and to today's usage (which the daily cap reads), and counts the guest's visit.
 */
import type { DB } from "../db/database.js";
import { transaction } from "../db/transaction.js";
import { countVisit } from "../modules/guests/guest-activity.service.js";
import { enqueueAutomations } from "../modules/outbox/outbox-triggers.js";
import { enqueueEventIfSubscribed } from "../modules/webhooks/webhook-events.js";
import type { NasContext } from "./nas-lookup.js";
import { isCredentialUsername } from "./portal-credentials.js";
import { type RadiusRepository, type SessionRow, macInAccount } from "./radius.repository.js";
import type { NewSession, SessionCounters } from "./radius-statements.js";
import { leadingMac } from "./station-id.js";
import type { AccountingDeps, AccountingJob, AccountingRecord, Applied } from "./accounting-record.js";
import { applyKnownInterims, grow, pickKnownInterims, usedUpCap } from "./known-interims.js";
import { type KnownSession, SessionMemo, knownSession } from "./session-memo.js";

/** The client MAC a new session's guest is looked up by, when its User-Name is no portal credential. */
function ownerMac(rec: AccountingRecord): string | undefined {
  return rec.userName && isCredentialUsername(rec.userName) ? undefined : (rec.clientMac ?? leadingMac(rec.userName));
}

/**
 * The guest and location a new session belongs to: the portal credential it logged in with, else its
 * MAC. `macGuest`: the guest by ownerMac's MAC, when it was read with the session (findSessionOrMacGuest).
 */
async function resolveOwner(
  db: DB,
  radiusRepository: RadiusRepository,
  nas: NasContext,
  rec: AccountingRecord,
  macGuest: { id: number | undefined } | undefined,
): Promise<{ guestId: number | null; locationId: number | null }> {
  const locationId = nas.location?.id ?? null;
  if (macGuest) return { guestId: macGuest.id ?? null, locationId };
  if (rec.userName && isCredentialUsername(rec.userName)) {
    const credential = await radiusRepository.findCredential(db, rec.userName);
    if (credential) return { guestId: credential.guest_id, locationId: credential.location_id };
  }
  const mac = rec.clientMac ?? leadingMac(rec.userName);
  const guestId = mac ? await radiusRepository.findGuestByMac(db, nas.device.account_id, mac) : undefined;
  return { guestId: guestId ?? null, locationId };
}

/**
 * Stores a new session with the packet's counters (`values`) and, when it is credited at the access
 * point's location, credits its guest in the same statement on PostgreSQL: the row (undefined when it
 * already existed) and, when credited, the day's new total.
 */
async function insertNewSession(
  trx: DB,
  { ctx, times }: AccountingDeps,
  { nas, at }: AccountingJob,
  values: NewSession,
): Promise<{ row: SessionRow | undefined; used?: number }> {
  const { guest_id: guestId, location_id: locationId } = values;
  const location = nas.location;
  const { delta } = grow(ZERO, values);
  if (guestId !== null && location && locationId === location.id && delta.input_octets + delta.output_octets > 0) {
    const credit = { delta, locationId, day: times.localDay(at, location.timezone) };
    const stored = await ctx.radius.insertSessionAndCredit(trx, { ...values, guest_id: guestId }, credit);
    return stored ?? { row: undefined };
  }
  return { row: await ctx.radius.insertSession(trx, values) };
}

const MAX_ATTEMPTS = 8;
const ZERO: SessionCounters = { session_time: 0, input_octets: 0, output_octets: 0 };

/** One packet's effects, inside the caller's transaction. */
async function applyAccounting(
  trx: DB,
  deps: AccountingDeps,
  job: AccountingJob,
  batchSessions: Map<string, KnownSession | undefined>,
  macGuests?: Map<string, number | undefined>,
): Promise<Applied> {
  const { ctx, visits, times, sessions } = deps;
  const { nas, rec, at } = job;
  const radiusRepository = ctx.radius;
  const { device } = nas;
  const now = times.dbDatetime(at);
  if (rec.status === "Accounting-On" || rec.status === "Accounting-Off") {
    await radiusRepository.closeDeviceSessions(trx, device.id, now, rec.status === "Accounting-On" ? "NAS-Reboot" : "NAS-Request");
    return { delta: ZERO };
  }
  if (rec.status === "Other" || !rec.acctSessionId) return { delta: ZERO };
  const acctSessionId = rec.acctSessionId.slice(0, 253);

  const stop = rec.status === "Stop" ? { terminateCause: rec.terminateCause?.slice(0, 32) ?? null } : undefined;
  const memoKey = SessionMemo.key(device.id, acctSessionId);
  // A session this server accounted goes straight to the compare-and-set (which fails, and the row
  // is read, when anyone else touched it). A Stop reads it: whether it closes the session decides
  // its webhook event. Earlier packets of this batch are not committed yet: theirs come first.
  const known = stop ? undefined : batchSessions.has(memoKey) ? batchSessions.get(memoKey) : sessions?.get(memoKey);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const guess = attempt === 0 ? known : undefined;
    let s: SessionRow | undefined;
    let isNew = false;
    // A new session is stored with this packet's counters at once (a Stop still goes through the
    // advance below, which closes it): one statement fewer for the first packet of every session.
    let stored = false;
    // The day's new total of the guest's usage, once credited.
    let used: number | undefined;
    if (!guess) {
      // Any packet but a Stop that the memo does not know is nearly always its session's first:
      // the insert comes first, and the row is read only when it exists (a restart emptied the
      // memo, or another instance created it meanwhile). A Stop, and a retry, read first, with the
      // guest behind the client's MAC in the same statement on PostgreSQL.
      let macGuest: { id: number | undefined } | undefined;
      if (stop || attempt > 0) {
        const mac = ownerMac(rec);
        if (mac) {
          const found = await radiusRepository.findSessionOrMacGuest(trx, { deviceId: device.id, acctSessionId }, { accountId: device.account_id, clientMac: mac });
          s = found.session;
          macGuest = { id: found.macGuestId };
        } else {
          s = await radiusRepository.findSession(trx, device.id, acctSessionId);
        }
      }
      if (!s) {
        const read = macInAccount(device.account_id, ownerMac(rec));
        macGuest ??= macGuests?.has(read) ? { id: macGuests.get(read) } : undefined;
        const owner = await resolveOwner(trx, radiusRepository, nas, rec, macGuest);
        const inserted = await insertNewSession(trx, deps, job, {
          device_id: device.id,
          guest_id: owner.guestId,
          location_id: owner.locationId,
          acct_session_id: acctSessionId,
          username: (rec.userName ?? "").slice(0, 253),
          client_mac: rec.clientMac ?? "",
          started_at: now,
          updated_at: now,
          stopped_at: null,
          framed_ip: rec.framedIp ?? null,
          nas_ip: rec.nasIp?.replace(/^::ffff:/, "").slice(0, 45) ?? null,
          ...(stop ? ZERO : rec.counters),
        });
        isNew = inserted.row !== undefined;
        stored = isNew && !stop;
        used = inserted.used;
        s = inserted.row ?? (await radiusRepository.findSession(trx, device.id, acctSessionId));
        if (!s) throw new Error(`radius session ${device.id}/${acctSessionId} vanished`);
      }
    }
    const session = guess ?? knownSession(s!);
    const { from, to, delta } = grow(stored ? ZERO : session, rec.counters);
    const framedIp = rec.framedIp ?? session.framed_ip;
    const guestId = session.guest_id;
    const octets = delta.input_octets + delta.output_octets;
    const location =
      guestId === null || session.location_id === null
        ? undefined
        : session.location_id === nas.location?.id
          ? nas.location
          : await ctx.repos.locations.findById(trx, session.location_id);
    const day = location ? times.localDay(at, location.timezone) : undefined;
    // What the guest is credited with: totals and the day's usage, which answers the day's new total.
    const credit = guestId !== null && location && day && octets > 0 ? { delta, locationId: location.id, day } : undefined;
    // An open session that keeps its address: only its counters change (stale, closed or a new address: the full update).
    const open = !stop && framedIp === session.framed_ip && (guess !== undefined || s!.stopped_at === null);
    if (!stored) {
      if (open && credit && guestId !== null) {
        const moved = await radiusRepository.advanceOpenAndCredit(trx, { id: session.id, guest_id: guestId }, from, to, now, credit);
        if (!moved.advanced) continue;
        used = moved.used;
      } else {
        const advanced = open
          ? await radiusRepository.advanceOpenSession(trx, session, from, to, now)
          : !guess && (await radiusRepository.advanceSession(trx, session.id, from, to, now, stop, rec.framedIp ?? null));
        if (!advanced) continue;
      }
    }
    const after = stop ? undefined : { ...session, ...to, framed_ip: framedIp };
    batchSessions.set(memoKey, after);
    // Webhooks: ids and counters only (no MAC, no address), in this transaction.
    const event = { session_id: session.id, guest_id: session.guest_id, location_id: session.location_id, device_id: device.id };
    if (isNew) {
      await enqueueEventIfSubscribed(ctx.db, trx, device.account_id, "session.start", { ...event, started_at: s!.started_at }, session.location_id, at);
    }
    if (stop && s!.stopped_at === null) {
      await enqueueEventIfSubscribed(
        ctx.db,
        trx,
        device.account_id,
        "session.stop",
        { ...event, stopped_at: now, ...to, terminate_cause: stop.terminateCause },
        session.location_id,
        at,
      );
      if (session.guest_id !== null && session.location_id !== null) {
        await enqueueAutomations(ctx.db, trx, "visit-ended", { accountId: device.account_id, guestId: session.guest_id, locationId: session.location_id, at: now, key: `s${session.id}` });
      }
    }
    const applied: Applied = { delta, session: [memoKey, after] };
    if (guestId === null) return applied;
    if (credit) {
      used ??= await radiusRepository.addGuestTotalsAndUsage(trx, guestId, delta, now, credit.locationId, credit.day);
      if (!stop && usedUpCap(nas, credit.locationId, used)) applied.overCap = session.id;
    } else if (isNew || stop || octets > 0 || delta.session_time > 0) {
      await radiusRepository.addGuestTotals(trx, guestId, delta, now);
    }
    if (!location || !day) return applied;
    if (visits.has(location.id, day, guestId)) return applied;
    await countVisit(trx, location.id, day, guestId);
    applied.visit = { locationId: location.id, day, guestId };
    return applied;
  }
  throw new Error(`radius session ${device.id}/${acctSessionId} kept changing; giving up so the NAS retries`);
}

/** What follows the commit of packets' effects: the memos, and ending sessions over the daily cap. */
function settle({ ctx, visits, sessions, config }: AccountingDeps, applied: (Applied | undefined)[]): void {
  for (const a of applied) {
    if (!a) continue;
    if (a.session) sessions?.set(a.session[0], a.session[1]);
    if (a.visit) visits.remember(a.visit.locationId, a.visit.day, a.visit.guestId);
    // After the commit, not awaited: the gateway is asked over the network; the outcome is recorded.
    if (a.overCap !== undefined && config) void ctx.sessionControl?.disconnect(a.overCap, "daily-cap", config).catch(() => {});
  }
}

/**
 * The guests behind the client MACs of the batch's packets that open a session (a Start or
 * Interim-Update the memo does not know, without a portal credential), read together before the
 * transaction: one statement on PostgreSQL for the batch instead of a round trip each inside it.
 * Keyed by macInAccount; a MAC without a guest maps to undefined.
 */
async function readOwnersByMac(
  { ctx, sessions }: AccountingDeps,
  jobs: AccountingJob[],
  done: (Applied | undefined)[],
  batchSessions: Map<string, KnownSession | undefined>,
): Promise<Map<string, number | undefined>> {
  const wanted = new Map<string, { accountId: number; clientMac: string }>();
  for (let i = 0; i < jobs.length; i++) {
    const { nas, rec } = jobs[i];
    if (done[i] || !rec.acctSessionId || (rec.status !== "Start" && rec.status !== "Interim-Update")) continue;
    const memoKey = SessionMemo.key(nas.device.id, rec.acctSessionId.slice(0, 253));
    if (batchSessions.has(memoKey) || sessions?.get(memoKey)) continue;
    const mac = ownerMac(rec);
    if (mac) wanted.set(macInAccount(nas.device.account_id, mac), { accountId: nas.device.account_id, clientMac: mac });
  }
  return ctx.radius.findGuestsByMacs(ctx.db, [...wanted.values()]);
}

/**
 * PostgreSQL: the open sessions of the batch's Interim-Updates that the memo does not know (after a
 * restart, or accounted by another instance) read in one statement, which also counts the day's
 * visits of their guests, before pickKnownInterims. Such packets then take its one statement for
 * the batch instead of a transaction of about five round trips each (insert, read, advance, two for
 * the visit). The rows read are committed state, which the compare-and-set checks again; a visit
 * counted here stands whatever becomes of the batch (the guest was online that day, and counting
 * is idempotent).
 */
async function recallSessions({ ctx, sessions, visits, times }: AccountingDeps, jobs: AccountingJob[]): Promise<void> {
  if (!sessions) return;
  const wanted: { key: string; deviceId: number; acctSessionId: string; at: { locationId: number; day: string } | undefined }[] = [];
  const seen = new Set<string>();
  for (const job of jobs) {
    const { nas, rec, at } = job;
    if (rec.status !== "Interim-Update" || !rec.acctSessionId) continue;
    const acctSessionId = rec.acctSessionId.slice(0, 253);
    const key = SessionMemo.key(nas.device.id, acctSessionId);
    if (seen.has(key) || sessions.get(key)) continue;
    seen.add(key);
    const location = nas.location;
    wanted.push({ key, deviceId: nas.device.id, acctSessionId, at: location ? { locationId: location.id, day: times.localDay(at, location.timezone) } : undefined });
  }
  if (wanted.length === 0) return;
  const recalled = await ctx.radius.recallOpenSessions(ctx.db, wanted, (v) => visits.has(v.locationId, v.day, v.guestId));
  for (let k = 0; k < wanted.length; k++) {
    const row = recalled.found[k];
    if (row) sessions.set(wanted[k].key, row);
  }
  for (const v of recalled.visits) visits.remember(v.locationId, v.day, v.guestId);
}

/**
 * Applies Accounting-Requests in one transaction: all or none (the NAS retries the ones not
 * answered). Returns the counters each added (all zero for a repeat). On PostgreSQL a batch of
 * nothing but packets applyKnownInterims takes is its one statement, which commits by itself (no
 * BEGIN and COMMIT round trips); those whose compare-and-set failed then get a transaction of their
 * own, after the memo has the others (were that one to fail, the writer retries every packet, and
 * the memo makes the committed ones add nothing).
 */
export async function recordAccountingBatch(deps: AccountingDeps, jobs: AccountingJob[]): Promise<SessionCounters[]> {
  const { ctx } = deps;
  const out: (Applied | undefined)[] = new Array(jobs.length);
  const batchSessions = new Map<string, KnownSession | undefined>();
  const oneStatement = ctx.radius.creditsInOneStatement(ctx.db);
  if (oneStatement) await recallSessions(deps, jobs);
  let picked = pickKnownInterims(deps, jobs);
  if (picked.length === jobs.length && oneStatement) {
    await applyKnownInterims(ctx.db, deps, jobs, picked, out, batchSessions);
    settle(deps, out);
    picked = [];
  }
  if (out.includes(undefined)) {
    const macGuests = await readOwnersByMac(deps, jobs, out, batchSessions);
    const rest = await transaction(ctx.db, async (trx) => {
      const applied: (Applied | undefined)[] = new Array(jobs.length);
      await applyKnownInterims(trx, deps, jobs, picked, applied, batchSessions);
      for (let i = 0; i < jobs.length; i++) if (!out[i]) applied[i] ??= await applyAccounting(trx, deps, jobs[i], batchSessions, macGuests);
      return applied;
    });
    settle(deps, rest);
    for (let i = 0; i < jobs.length; i++) out[i] ??= rest[i];
  }
  return out.map((a) => a!.delta);
}
