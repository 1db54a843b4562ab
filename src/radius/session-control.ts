/**
 * Changing and ending live guest sessions from our side (RFC 5176): which gateway to ask, at which
 * address and port, with which attributes, and the record of every request (coa_requests).
 *
 * - `disconnect`: a Disconnect-Request for one session (operator, daily cap, a voucher run out).
 *   On an ACK the session is closed at once (cause Admin-Reset; the gateway's Stop that follows
 *   still adds its last counters).
 * - `disconnectGuest`: the same for every live session of a guest (at one location, or all).
 * - `applyLocationOptions`: a CoA-Request with the location's new limits, in the attributes of each
 *   gateway's family (reply-attributes.ts), to every live session at the location.
 *
 * Families without dynamic authorization (device-families.ts) are recorded as "unsupported": their
 * sessions get new limits at the next authorisation (docs/sessions.md). Requests never run inside
 * a caller's transaction: they wait on the network for seconds.
 */
import { isIP } from "node:net";
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import { toDbDatetime } from "../db/time.js";
import { transaction } from "../db/transaction.js";
import type { CoaOutcome, CoaReason, SessionControl } from "../modules/context.js";
import { coaSupportOf, filterRoleAttributeOf, radiusDialectOf } from "../modules/devices/device-models.js";
import { localDay } from "../modules/guests/local-day.js";
import { COA_CODE, type CoaConnection, type SessionIdentity, identityAttributes, sendCoaOverConnection, sendCoaRequest } from "./coa-client.js";
import { grantFor } from "../gateways/grant-policy.js";
import { AcceptTemplate, acceptOptionsOf } from "./reply-attributes.js";

/** RFC 5176 / RFC 2866 Acct-Terminate-Cause name for a session we ended. */
export const DISCONNECTED_CAUSE = "Admin-Reset";
/** A session is live while heard from within this many accounting intervals (as GET /api/session-list). */
const LIVE_INTERVALS = 3;

interface TargetRow {
  id: number;
  device_id: number;
  guest_id: number | null;
  location_id: number | null;
  acct_session_id: string;
  username: string;
  client_mac: string;
  framed_ip: string | null;
  nas_ip: string | null;
  stopped_at: string | null;
  model_id: string;
  radius_secret: string;
  wan_ip: string;
}

function targets(db: DB) {
  return db
    .selectFrom("radius_sessions as s")
    .innerJoin("devices as d", "d.id", "s.device_id")
    .select([
      "s.id",
      "s.device_id",
      "s.guest_id",
      "s.location_id",
      "s.acct_session_id",
      "s.username",
      "s.client_mac",
      "s.framed_ip",
      "s.nas_ip",
      "s.stopped_at",
      "d.model_id",
      "d.radius_secret",
      "d.wan_ip",
    ]);
}

/** Where the gateway of a session listens: the address its accounting came from, else its registered WAN address. */
function nasAddress(row: TargetRow): string | undefined {
  if (row.nas_ip && isIP(row.nas_ip) !== 0) return row.nas_ip;
  if (row.wan_ip && isIP(row.wan_ip) !== 0) return row.wan_ip;
  return undefined;
}

function identity(row: TargetRow): SessionIdentity {
  return { acctSessionId: row.acct_session_id, userName: row.username, clientMac: row.client_mac, framedIp: row.framed_ip };
}

/** Where a gateway keeps a RadSec connection open (radsec-peers.ts). */
export interface RadsecRoutes {
  connectionFor(deviceId: number): (CoaConnection & { remoteAddress: string; remotePort: number }) | undefined;
}

/** RFC 6614 section 2.3: the secret of RADIUS over TLS. */
const RADSEC_SECRET = "radsec";

export function createSessionControl(base: { db: DB; radsec?: RadsecRoutes }): SessionControl {
  const { db } = base;
  /** Sessions with a Disconnect-Request under way: repeated triggers (every interim over the cap) wait for it. */
  const disconnecting = new Map<number, Promise<CoaOutcome>>();

  async function record(row: TargetRow, kind: "disconnect" | "coa", reason: CoaReason, address: string, port: number, result: string): Promise<number> {
    const now = toDbDatetime(new Date());
    const inserted = await db
      .insertInto("coa_requests")
      .values({
        session_id: row.id,
        device_id: row.device_id,
        location_id: row.location_id,
        kind,
        reason,
        nas_address: address,
        nas_port: port,
        requested_at: now,
        finished_at: result === "pending" ? null : now,
        result,
        error_cause: null,
        attempts: 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async function send(row: TargetRow, kind: "disconnect" | "coa", reason: CoaReason, config: Readonly<Config>, attributes: Buffer[]): Promise<CoaOutcome> {
    const support = coaSupportOf(row.model_id);
    const address = nasAddress(row);
    if (!support || (kind === "coa" && !support.change)) {
      const id = await record(row, kind, reason, address ?? "", 0, "unsupported");
      return { requestId: id, sessionId: row.id, result: "unsupported", errorCause: null, attempts: 0 };
    }
    const code = kind === "disconnect" ? COA_CODE.DisconnectRequest : COA_CODE.CoaRequest;
    const options = { timeoutMs: config.radius.coaTimeoutMs, attempts: config.radius.coaAttempts };
    // A gateway on RadSec is asked over its own connection: nothing has to reach it through its NAT.
    const connection = base.radsec?.connectionFor(row.device_id);
    if (connection) {
      const id = await record(row, kind, reason, connection.remoteAddress, connection.remotePort, "pending");
      return finish(row, kind, id, await sendCoaOverConnection(connection, code, attributes, RADSEC_SECRET, options));
    }
    const port = config.radius.coaPort || support.port;
    if (!address) {
      const id = await record(row, kind, reason, "", port, "no-address");
      return { requestId: id, sessionId: row.id, result: "no-address", errorCause: null, attempts: 0 };
    }
    const id = await record(row, kind, reason, address, port, "pending");
    return finish(row, kind, id, await sendCoaRequest({ address, port, secret: row.radius_secret }, code, attributes, options));
  }

  async function finish(row: TargetRow, kind: "disconnect" | "coa", id: number, answer: Omit<CoaOutcome, "requestId" | "sessionId">): Promise<CoaOutcome> {
    const now = toDbDatetime(new Date());
    // The session's end and the request's outcome are seen together.
    await transaction(db, async (trx) => {
      if (kind === "disconnect" && answer.result === "ack") {
        await trx
          .updateTable("radius_sessions")
          .set({ stopped_at: now, terminate_cause: DISCONNECTED_CAUSE })
          .where("id", "=", row.id)
          .where("stopped_at", "is", null)
          .execute();
      }
      await trx
        .updateTable("coa_requests")
        .set({ result: answer.result, error_cause: answer.errorCause, attempts: answer.attempts, finished_at: now })
        .where("id", "=", id)
        .execute();
    });
    return { requestId: id, sessionId: row.id, ...answer };
  }

  function disconnectRow(row: TargetRow, reason: CoaReason, config: Readonly<Config>): Promise<CoaOutcome> {
    const running = disconnecting.get(row.id);
    if (running) return running;
    const p = send(row, "disconnect", reason, config, identityAttributes(identity(row))).finally(() => disconnecting.delete(row.id));
    disconnecting.set(row.id, p);
    return p;
  }

  const heardSince = (config: Readonly<Config>) => toDbDatetime(new Date(Date.now() - LIVE_INTERVALS * config.radius.interimInterval * 1000));

  const control: SessionControl = {
    async disconnect(sessionId, reason, config) {
      const row = (await targets(db).where("s.id", "=", sessionId).executeTakeFirst()) as TargetRow | undefined;
      if (!row) throw new Error(`session ${sessionId} not found`);
      return disconnectRow(row, reason, config);
    },

    async disconnectGuest(guestId, locationId, reason, config) {
      let q = targets(db).where("s.guest_id", "=", guestId).where("s.stopped_at", "is", null).where("s.updated_at", ">=", heardSince(config));
      if (locationId !== null) q = q.where("s.location_id", "=", locationId);
      const rows = (await q.orderBy("s.id").execute()) as TargetRow[];
      return Promise.all(rows.map((row) => disconnectRow(row, reason, config)));
    },

    async applyLocationOptions(locationId, options, timezone, config) {
      const rows = (await targets(db)
        .where("s.location_id", "=", locationId)
        .where("s.stopped_at", "is", null)
        .where("s.updated_at", ">=", heardSince(config))
        .orderBy("s.id")
        .execute()) as TargetRow[];
      const day = localDay(new Date(), timezone);
      return Promise.all(
        rows.map(async (row) => {
          let used: number | undefined;
          if (options.daily_bandwidth_cap > 0 && row.guest_id !== null) {
            const usage = await db
              .selectFrom("daily_usage")
              .select("octets")
              .where("guest_id", "=", row.guest_id)
              .where("location_id", "=", locationId)
              .where("day", "=", day)
              .executeTakeFirst();
            used = Number(usage?.octets ?? 0);
          }
          // The same answer an Access-Accept would carry now (src/gateways/grant-policy.ts).
          const grant = grantFor({ options: { ...NO_NETWORK_OPTIONS, ...options }, usedToday: used, settings: { interimInterval: config.radius.interimInterval } });
          const template = new AcceptTemplate(radiusDialectOf(row.model_id), acceptOptionsOf(grant), filterRoleAttributeOf(row.model_id));
          const remaining = row.guest_id === null ? undefined : grant.remainingBytes;
          if (remaining === 0) return disconnectRow(row, "daily-cap", config);
          const scratch = Buffer.alloc(1024);
          const end = template.reply(remaining).writeInto(scratch, 0);
          const limits = Buffer.from(scratch.subarray(0, end));
          // Split into single attributes (writeInto writes a run of them).
          const attrs: Buffer[] = [];
          for (let off = 0; off < limits.length; off += limits[off + 1]) attrs.push(limits.subarray(off, off + limits[off + 1]));
          return send(row, "coa", "options-changed", config, [...identityAttributes(identity(row)), ...attrs]);
        }),
      );
    },

  };
  return control;
}

/** A CoA carries limits only: the network options (DNS, lists) reach gateways through their configuration. */
const NO_NETWORK_OPTIONS = { content_filter: 0, dns_server_1: "", dns_server_2: "", whitelist: "", blacklist: "" };

