/**
 * An Accounting-Request as the accounting rules read it, and what applying one needs and yields: the
 * types the packet handler, the batch and the known-interims statement share.
 */
import type { Config } from "../config.js";
import type { NasContext } from "./nas-lookup.js";
import type { PacketTime } from "./packet-time.js";
import type { RadiusCtx } from "./radius.repository.js";
import type { SessionCounters } from "./radius-statements.js";
import type { KnownSession, SessionMemo } from "./session-memo.js";
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

export interface AccountingDeps {
  ctx: RadiusCtx;
  visits: VisitMemo;
  times: PacketTime;
  /** Needed to end sessions past the daily cap (RFC 5176); without it they end at their next authorisation. */
  config?: Readonly<Config>;
  /** Sessions this server accounted (without it every packet reads its session first). */
  sessions?: SessionMemo;
}

export interface AccountingJob {
  nas: NasContext;
  rec: AccountingRecord;
  at: Date;
}

export interface Applied {
  delta: SessionCounters;
  visit?: { locationId: number; day: string; guestId: number };
  /** The session's guest used up the location's daily cap with this packet: end the session. */
  overCap?: number;
  /** The session as this packet left it (undefined: closed), for the memo once committed. */
  session?: [key: string, known: KnownSession | undefined];
}
