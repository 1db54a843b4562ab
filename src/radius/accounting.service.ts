/**
 * What accounting means for guests: sessions keyed by (device, Acct-Session-Id); the NAS reports
 * absolute counters, so each packet adds only what grew since the stored values to the guest's
 * radius_* totals and to today's usage (which the daily cap reads), and counts the guest's visit.
 */
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import { transaction } from "../db/transaction.js";
import { countVisit } from "../modules/guests/guest-activity.service.js";
import { enqueueAutomations } from "../modules/outbox/outbox-triggers.js";
import { enqueueEventIfSubscribed } from "../modules/webhooks/webhook-events.js";
import type { NasContext } from "./nas-lookup.js";
import { isCredentialUsername } from "./portal-credentials.js";
import type { RadiusCtx, RadiusRepository, SessionCounters } from "./radius.repository.js";
import { leadingMac } from "./station-id.js";
import type { PacketTime } from "./packet-time.js";
import type { VisitMemo } from "./visit-memo.js";

export type AcctStatus = "Start" | "Stop" | "Interim-Update" | "Accounting-On" | "Accounting-Off" | "Other";

export interface AccountingRecord {
  status: AcctStatus;
  acctSessionId: string | undefined;
  userName: string | undefined;
  /** Canonical client MAC from Calling-Station-Id. */
  clientMac: string | undefined;
  counters: SessionCounters;
  terminateCause: string | undefined;
  /** Framed-IP-Address: the guest's address on the gateway's network, when it says. */
  framedIp: string | undefined;
  /** Where the gateway can be reached for CoA (the packet's source address); absent in tests that build records by hand. */
  nasIp?: string | undefined;
}

/** Acct-Status-Type as decoded (dictionary name, or the number when unnamed). */
export function acctStatus(value: number | string | undefined): AcctStatus {
  switch (value) {
    case "Start":
    case 1:
      return "Start";
    case "Stop":
    case 2:
      return "Stop";
    case "Interim-Update":
    case 3:
      return "Interim-Update";
    case "Accounting-On":
    case 7:
      return "Accounting-On";
    case "Accounting-Off":
    case 8:
      return "Accounting-Off";
    default:
      return "Other";
  }
}

/** The guest and location a new session belongs to: the portal credential it logged in with, else its MAC. */
async function resolveOwner(db: DB, radiusRepository: RadiusRepository, nas: NasContext, rec: AccountingRecord): Promise<{ guestId: number | null; locationId: number | null }> {
  if (rec.userName && isCredentialUsername(rec.userName)) {
    const credential = await radiusRepository.findCredential(db, rec.userName);
    if (credential) return { guestId: credential.guest_id, locationId: credential.location_id };
  }
  const mac = rec.clientMac ?? leadingMac(rec.userName);
  const guestId = mac ? await radiusRepository.findGuestByMac(db, nas.device.account_id, mac) : undefined;
  return { guestId: guestId ?? null, locationId: nas.location?.id ?? null };
}

/**
 * Whether `used` octets are the whole daily cap of the access point's location (the options the
 * NAS cache holds; a session counted at another location is left to its next authorisation).
 */
function usedUpCap(nas: NasContext, locationId: number, used: number): boolean {
  const cap = nas.location?.id === locationId ? Number(nas.options?.daily_bandwidth_cap ?? 0) : 0;
  return cap > 0 && used >= cap;
}

const MAX_ATTEMPTS = 8;
const ZERO: SessionCounters = { session_time: 0, input_octets: 0, output_octets: 0 };

export interface AccountingDeps {
  ctx: RadiusCtx;
  visits: VisitMemo;
  times: PacketTime;
  /** Needed to end sessions past the daily cap (RFC 5176); without it they end at their next authorisation. */
  config?: Readonly<Config>;
}

export interface AccountingJob {
  nas: NasContext;
  rec: AccountingRecord;
  at: Date;
}

interface Applied {
  delta: SessionCounters;
  visit?: { locationId: number; day: string; guestId: number };
  /** The session's guest used up the location's daily cap with this packet: end the session. */
  overCap?: number;
}

/** One packet's effects, inside the caller's transaction. */
async function applyAccounting(trx: DB, { ctx, visits, times }: AccountingDeps, { nas, rec, at }: AccountingJob): Promise<Applied> {
  const radiusRepository = ctx.radius;
  const { device } = nas;
  const now = times.dbDatetime(at);
  if (rec.status === "Accounting-On" || rec.status === "Accounting-Off") {
    await radiusRepository.closeDeviceSessions(trx, device.id, now, rec.status === "Accounting-On" ? "NAS-Reboot" : "NAS-Request");
    return { delta: ZERO };
  }
  if (rec.status === "Other" || !rec.acctSessionId) return { delta: ZERO };
  const acctSessionId = rec.acctSessionId.slice(0, 253);

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let s = await radiusRepository.findSession(trx, device.id, acctSessionId);
    const isNew = !s;
    if (!s) {
      const owner = await resolveOwner(trx, radiusRepository, nas, rec);
      const inserted = await radiusRepository.insertSession(trx, {
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
        ...ZERO,
      });
      s = inserted ?? (await radiusRepository.findSession(trx, device.id, acctSessionId));
      if (!s) throw new Error(`radius session ${device.id}/${acctSessionId} vanished`);
    }
    const from = { session_time: Number(s.session_time), input_octets: Number(s.input_octets), output_octets: Number(s.output_octets) };
    // Counters only grow; an older Interim-Update arriving late adds nothing.
    const to = {
      session_time: Math.max(from.session_time, rec.counters.session_time),
      input_octets: Math.max(from.input_octets, rec.counters.input_octets),
      output_octets: Math.max(from.output_octets, rec.counters.output_octets),
    };
    const stop = rec.status === "Stop" ? { terminateCause: rec.terminateCause?.slice(0, 32) ?? null } : undefined;
    if (!(await radiusRepository.advanceSession(trx, s.id, from, to, now, stop, rec.framedIp ?? null))) continue;
    const delta = {
      session_time: to.session_time - from.session_time,
      input_octets: to.input_octets - from.input_octets,
      output_octets: to.output_octets - from.output_octets,
    };
    // Webhooks: ids and counters only (no MAC, no address), in this transaction.
    const event = { session_id: s.id, guest_id: s.guest_id, location_id: s.location_id, device_id: device.id };
    if (isNew) {
      await enqueueEventIfSubscribed(ctx.db, trx, device.account_id, "session.start", { ...event, started_at: s.started_at }, s.location_id, at);
    }
    if (stop && s.stopped_at === null) {
      await enqueueEventIfSubscribed(
        ctx.db,
        trx,
        device.account_id,
        "session.stop",
        { ...event, stopped_at: now, ...to, terminate_cause: stop.terminateCause },
        s.location_id,
        at,
      );
      if (s.guest_id !== null && s.location_id !== null) {
        await enqueueAutomations(ctx.db, trx, "visit-ended", { accountId: device.account_id, guestId: s.guest_id, locationId: s.location_id, at: now, key: `s${s.id}` });
      }
    }
    if (s.guest_id === null) return { delta };
    const octets = delta.input_octets + delta.output_octets;
    if (isNew || stop || octets > 0 || delta.session_time > 0) await radiusRepository.addGuestTotals(trx, s.guest_id, delta, now);
    const location =
      s.location_id === null ? undefined : s.location_id === nas.location?.id ? nas.location : await ctx.repos.locations.findById(trx, s.location_id);
    if (!location) return { delta };
    const day = times.localDay(at, location.timezone);
    // The upsert answers the day's new total: no second read to judge the cap.
    const used = octets > 0 ? await radiusRepository.addUsage(trx, s.guest_id, location.id, day, octets) : 0;
    const overCap = octets > 0 && !stop && usedUpCap(nas, location.id, used) ? s.id : undefined;
    if (visits.has(location.id, day, s.guest_id)) return { delta, overCap };
    await countVisit(trx, location.id, day, s.guest_id);
    return { delta, visit: { locationId: location.id, day, guestId: s.guest_id }, overCap };
  }
  throw new Error(`radius session ${device.id}/${acctSessionId} kept changing; giving up so the NAS retries`);
}

/**
 * Applies Accounting-Requests in one transaction: all or none (the NAS retries the ones not
 * answered). Returns the counters each added (all zero for a repeat).
 */
export async function recordAccountingBatch(deps: AccountingDeps, jobs: AccountingJob[]): Promise<SessionCounters[]> {
  const { ctx, visits } = deps;
  const applied = await transaction(ctx.db, async (trx) => {
    const out: Applied[] = [];
    for (const job of jobs) out.push(await applyAccounting(trx, deps, job));
    return out;
  });
  for (const a of applied) {
    if (a.visit) visits.remember(a.visit.locationId, a.visit.day, a.visit.guestId);
    // After the commit, not awaited: the gateway is asked over the network; the outcome is recorded.
    if (a.overCap !== undefined && deps.config) void ctx.sessionControl?.disconnect(a.overCap, "daily-cap", deps.config).catch(() => {});
  }
  return applied.map((a) => a.delta);
}
