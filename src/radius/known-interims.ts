/**
 * The commonest accounting packet, a batch's at once: Interim-Updates of open sessions the session
 * memo knows (see recordAccountingBatch), and the counter rules they share with applyAccounting.
 */
import type { DB } from "../db/database.js";
import type { AccountingDeps, AccountingJob, Applied } from "./accounting-record.js";
import type { NasContext } from "./nas-lookup.js";
import type { CreditMove, SessionCounters } from "./radius-statements.js";
import { type KnownSession, SessionMemo } from "./session-memo.js";

/** Counters only grow; an older Interim-Update arriving late adds nothing. */
export function grow(stored: SessionCounters, reported: SessionCounters): { from: SessionCounters; to: SessionCounters; delta: SessionCounters } {
  const from = { session_time: stored.session_time, input_octets: stored.input_octets, output_octets: stored.output_octets };
  const to = {
    session_time: Math.max(from.session_time, reported.session_time),
    input_octets: Math.max(from.input_octets, reported.input_octets),
    output_octets: Math.max(from.output_octets, reported.output_octets),
  };
  const delta = {
    session_time: to.session_time - from.session_time,
    input_octets: to.input_octets - from.input_octets,
    output_octets: to.output_octets - from.output_octets,
  };
  return { from, to, delta };
}

/**
 * Whether `used` octets are the whole daily cap of the access point's location (the options the
 * NAS cache holds; a session counted at another location is left to its next authorisation).
 */
export function usedUpCap(nas: NasContext, locationId: number, used: number): boolean {
  const cap = nas.location?.id === locationId ? Number(nas.options?.daily_bandwidth_cap ?? 0) : 0;
  return cap > 0 && used >= cap;
}

/** A packet applyKnownInterims takes: its index in the batch and its compare-and-set. */
export interface KnownInterim {
  i: number;
  key: string;
  known: KnownSession;
  move: CreditMove;
}

/**
 * The commonest packet, all of a batch's at once: an Interim-Update of an open session the memo
 * knows, that keeps its address and adds octets at the access point's own location, for a guest
 * whose visit of the day is counted. That is applyAccounting's compare-and-set of the counters and
 * the guest's credit, which advanceOpenAndCreditMany does for every such packet in one statement on
 * PostgreSQL. Only a session's first packet in the batch qualifies, and none after an
 * Accounting-On/Off of its access point, so running them before the others changes no outcome.
 */
export function pickKnownInterims({ visits, times, sessions }: AccountingDeps, jobs: AccountingJob[]): KnownInterim[] {
  const picked: KnownInterim[] = [];
  if (!sessions) return picked;
  const seen = new Set<string>();
  const rebooted = new Set<number>();
  for (let i = 0; i < jobs.length; i++) {
    const { nas, rec, at } = jobs[i];
    if (rec.status === "Accounting-On" || rec.status === "Accounting-Off") rebooted.add(nas.device.id);
    if (!rec.acctSessionId) continue;
    const key = SessionMemo.key(nas.device.id, rec.acctSessionId.slice(0, 253));
    if (seen.has(key)) continue;
    seen.add(key);
    if (rec.status !== "Interim-Update" && rec.status !== "Start") continue;
    const known = sessions.get(key);
    const location = nas.location;
    if (!known || known.guest_id === null || !location || known.location_id !== location.id || rebooted.has(nas.device.id)) continue;
    if (rec.framedIp !== undefined && rec.framedIp !== known.framed_ip) continue;
    const { from, to, delta } = grow(known, rec.counters);
    if (delta.input_octets + delta.output_octets <= 0) continue;
    const day = times.localDay(at, location.timezone);
    if (!visits.has(location.id, day, known.guest_id)) continue;
    const session = { id: known.id, guest_id: known.guest_id };
    picked.push({ i, key, known, move: { session, from, to, now: times.dbDatetime(at), credit: { delta, locationId: location.id, day } } });
  }
  return picked;
}

/**
 * Applies the picked packets; fills `out` for those it advanced. A packet whose compare-and-set
 * fails (someone else touched the row) is left, marked in batchSessions as not known, to
 * applyAccounting, which reads its row.
 */
export async function applyKnownInterims(
  db: DB,
  { ctx }: AccountingDeps,
  jobs: AccountingJob[],
  picked: KnownInterim[],
  out: (Applied | undefined)[],
  batchSessions: Map<string, KnownSession | undefined>,
): Promise<void> {
  if (picked.length === 0) return;
  const used = await ctx.radius.advanceOpenAndCreditMany(db, picked.map((p) => p.move));
  for (let k = 0; k < picked.length; k++) {
    const { i, key, known, move } = picked[k];
    const u = used[k];
    if (u === undefined) {
      batchSessions.set(key, undefined);
      continue;
    }
    const after = { ...known, ...move.to };
    batchSessions.set(key, after);
    const applied: Applied = { delta: move.credit.delta, session: [key, after] };
    if (usedUpCap(jobs[i].nas, move.credit.locationId, u)) applied.overCap = known.id;
    out[i] = applied;
  }
}
