/**
 * One datagram in, at most one datagram out. Anything that does not prove it comes from a
 * registered access point (unknown device, bad authenticator, missing or bad
 * Message-Authenticator) is dropped without an answer, as RFC 2865/3579 ask.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import { dialectOf } from "../db/dialect.js";
import { type AccessDeps, authorizeAccess } from "./access.service.js";
import { AccountingBatcher } from "./accounting-batcher.js";
import { type AccountingJob, acctStatus, recordAccounting } from "./accounting.service.js";
import { NasLookup } from "./nas-lookup.js";
import type { PasswordProof } from "./password-check.js";
import { isCredentialUsername } from "./portal-credentials.js";
import {
  CODE,
  type Decoded,
  accountingAuthenticatorValid,
  checkMessageAuthenticator,
  decodePacket,
  decryptUserPassword,
  encodeReply,
  intAttr,
  octetsAttr,
  rawUserPassword,
  stringAttr,
  wellFormed,
} from "./radius-codec.js";
import { totalOctets } from "./reply-attributes.js";
import { accessPointMacs, leadingMac } from "./station-id.js";
import { VisitMemo } from "./visit-memo.js";

export type PortKind = "auth" | "acct";

const NO_PROOF: PasswordProof = { kind: "none" };

/** An integer attribute's number (undefined when absent or enumerated by name). */
function numberAttr(attrs: Record<string, unknown>, name: string): number | undefined {
  const v = intAttr(attrs, name);
  return typeof v === "number" ? v : undefined;
}

export class PacketHandler {
  private readonly nas: NasLookup;
  /** What access and accounting need (accounting uses db and visits). */
  private readonly deps: AccessDeps;
  /** SQLite: group commit. PostgreSQL: one transaction per packet, in parallel over the pool. */
  private readonly applyAccounting: (job: AccountingJob) => Promise<unknown>;

  constructor(
    db: DB,
    private readonly config: Readonly<Config>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.nas = new NasLookup(db);
    const deps = { db, config, visits: new VisitMemo() };
    this.deps = deps;
    if (dialectOf(db) === "sqlite") {
      const batcher = new AccountingBatcher(deps);
      this.applyAccounting = (job) => batcher.submit(job);
    } else {
      this.applyAccounting = (job) => recordAccounting(deps, job.nas, job.rec, job.at);
    }
  }

  /** The reply to send, or undefined to stay silent. Throws only on infrastructure faults (database). */
  async handle(kind: PortKind, datagram: Buffer): Promise<Buffer | undefined> {
    const packet = wellFormed(datagram);
    if (!packet) return this.drop("malformed packet");
    if (packet[0] !== (kind === "auth" ? CODE.AccessRequest : CODE.AccountingRequest)) return this.drop("wrong code for this port");
    let request: Decoded;
    try {
      request = decodePacket(packet);
    } catch {
      return this.drop("undecodable attributes");
    }
    const attrs = request.attributes;
    // Cached answers come back synchronously: awaiting only real promises saves a turn per packet.
    const found = this.nas.find(accessPointMacs(stringAttr(attrs, "Called-Station-Id"), stringAttr(attrs, "NAS-Identifier")));
    const nas = found instanceof Promise ? await found : found;
    if (!nas) return this.drop("unknown access point");
    const { device } = nas;
    const secret = device.radius_secret;
    const ma = checkMessageAuthenticator(packet, secret);
    if (ma === "invalid") return this.drop("bad Message-Authenticator", device.id);
    if (kind === "auth") {
      if (ma === "absent" && this.config.radius.requireMessageAuthenticator) return this.drop("no Message-Authenticator", device.id);
    } else if (!accountingAuthenticatorValid(packet, secret)) {
      return this.drop("bad accounting authenticator", device.id);
    }
    const heard = this.nas.markHeard(device);
    if (heard) await heard;
    const clientMac = leadingMac(stringAttr(attrs, "Calling-Station-Id"));
    const userName = stringAttr(attrs, "User-Name");

    if (kind === "auth") {
      // User-Password is decrypted only for a portal credential (MAC authentication sends a public one).
      const proof = userName !== undefined && isCredentialUsername(userName) ? this.proof(request, secret) : NO_PROOF;
      const decision = await authorizeAccess(this.deps, nas, { userName, proof, clientMac });
      if (this.log.level === "debug" || this.log.level === "trace") {
        const outcome = decision.accept ? { via: decision.via } : { reason: decision.reason };
        this.log.debug({ deviceId: device.id, userName, accept: decision.accept, ...outcome }, "radius access");
      }
      if (decision.accept) return encodeReply(request, CODE.AccessAccept, decision.attributes, secret);
      return encodeReply(request, CODE.AccessReject, decision.replyMessage ? [["Reply-Message", decision.replyMessage]] : [], secret);
    }

    await this.applyAccounting({
      nas,
      at: new Date(),
      rec: {
        status: acctStatus(intAttr(attrs, "Acct-Status-Type")),
        acctSessionId: stringAttr(attrs, "Acct-Session-Id"),
        userName,
        clientMac,
        counters: {
          session_time: numberAttr(attrs, "Acct-Session-Time") ?? 0,
          input_octets: totalOctets(numberAttr(attrs, "Acct-Input-Octets"), numberAttr(attrs, "Acct-Input-Gigawords")),
          output_octets: totalOctets(numberAttr(attrs, "Acct-Output-Octets"), numberAttr(attrs, "Acct-Output-Gigawords")),
        },
        terminateCause: intAttr(attrs, "Acct-Terminate-Cause")?.toString(),
      },
    });
    return encodeReply(request, CODE.AccountingResponse, [], secret);
  }

  private proof(request: Decoded, secret: string): PasswordProof {
    const hidden = rawUserPassword(request.raw);
    if (hidden) {
      const password = decryptUserPassword(hidden, secret, request.authenticator);
      return password === undefined ? { kind: "none" } : { kind: "pap", password };
    }
    const chapPassword = octetsAttr(request.attributes, "CHAP-Password");
    if (chapPassword) {
      return { kind: "chap", chapPassword, challenge: octetsAttr(request.attributes, "CHAP-Challenge") ?? request.authenticator };
    }
    return { kind: "none" };
  }

  private drop(reason: string, deviceId?: number): undefined {
    this.log.debug({ reason, deviceId }, "radius packet dropped");
    return undefined;
  }
}
