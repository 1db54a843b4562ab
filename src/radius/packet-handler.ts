/**
 * One datagram in, at most one datagram out, in three steps: verify (a well-formed request from a
 * registered access point that proves it knows the device's secret), decide (access rules, or
 * accounting written through the injected writer), encode (the signed reply). Anything that does
 * not verify (unknown device, bad authenticator, missing or bad Message-Authenticator) is dropped
 * without an answer, as RFC 2865/3579 ask.
 */
import type { FastifyBaseLogger } from "fastify";
import { LRUCache } from "lru-cache";
import type { Config } from "../config.js";
import type { SubmitWrite } from "../db/batched-writer.js";
import { REDACTED } from "../logger.js";
import { type AccessDecision, type AccessDeps, authorizeAccess } from "./access.service.js";
import { type AccountingJob, type AccountingRecord, acctStatus } from "./accounting-record.js";
import type { NasContext, NasLookup } from "./nas-lookup.js";
import type { PasswordProof } from "./password-check.js";
import type { RadiusEvents } from "./radius-events.js";
import { isCredentialUsername } from "./portal-credentials.js";
import { isPasspointUsername } from "../modules/passpoint/passpoint-values.js";
import {
  CODE,
  type Decoded,
  RadiusSecret,
  accountingAuthenticatorValid,
  checkMessageAuthenticator,
  decodePacket,
  decryptUserPassword,
  encodeReply,
  intAttr,
  WithRawAttributes,
  octetsAttr,
  rawUserPassword,
  stringAttr,
  wellFormed,
} from "./radius-codec.js";
import type { SessionCounters } from "./radius-statements.js";
import { EAP_SUPPORT_ERRORS, type EapServer } from "./eap/eap-server.js";
import { eapMessageOf } from "./eap/eap-packet.js";
import { mppeKeyAttributes } from "./eap/mppe.js";
import type { EapHandoff } from "./eap/eap-handoff.js";
import { totalOctets } from "./reply-attributes.js";
import { accessPointMacs, leadingMac } from "./station-id.js";

export type PortKind = "auth" | "acct";

export const TYPE_OF_PORT = { auth: "access", acct: "accounting" } as const;

const NO_PROOF: PasswordProof = { kind: "none" };
/** Device secrets with their HMAC pads worked out; a site has few, this bounds a flood of changes. */
const SECRETS_MAX = 10_000;

export interface PacketHandlerDeps {
  config: Readonly<Config>;
  log: FastifyBaseLogger;
  nas: NasLookup;
  access: AccessDeps;
  /** Writes one packet's accounting (group commit, in lanes on PostgreSQL); resolves once committed. */
  account: SubmitWrite<AccountingJob, SessionCounters>;
  /** Where each outcome is counted, and rejects and drops logged. */
  events: RadiusEvents;
  /** EAP-TTLS and EAP-TLS conversations (docs/radius.md#eap); undefined: EAP-Message requests are rejected. */
  eap?: EapServer;
  /** Hands rounds of conversations another instance holds to it (undefined: such rounds are refused). */
  handoff?: EapHandoff;
}

/**
 * A request that came over RadSec (RFC 6614): signed with the fixed secret "radsec", from a client
 * whose certificate speaks for one account; it may name any access point of that account (a
 * venue's gateway relays for its APs), never another account's.
 */
export interface TlsOrigin {
  secret: RadiusSecret;
  /** The account the certificate speaks for; undefined for an operator-trusted CA's (any registered device). */
  accountId: number | undefined;
  /** Told which access point a verified request named (CoA for it goes back over this connection). */
  heard(deviceId: number): void;
}

/** A request that verified: from this access point, signed with its secret. */
interface Verified {
  request: Decoded;
  nas: NasContext;
  secret: RadiusSecret;
  /** Set when it came over RadSec (a handed EAP round is signed with the RadSec secret too). */
  tls: TlsOrigin | undefined;
}

/** An integer attribute's number (undefined when absent or enumerated by name). */
function numberAttr(attrs: Record<string, unknown>, name: string): number | undefined {
  const v = intAttr(attrs, name);
  return typeof v === "number" ? v : undefined;
}

function accountingRecord(attrs: Record<string, unknown>, source: string | undefined): AccountingRecord {
  return {
    status: acctStatus(intAttr(attrs, "Acct-Status-Type")),
    acctSessionId: stringAttr(attrs, "Acct-Session-Id"),
    userName: stringAttr(attrs, "User-Name"),
    clientMac: leadingMac(stringAttr(attrs, "Calling-Station-Id")),
    counters: {
      session_time: numberAttr(attrs, "Acct-Session-Time") ?? 0,
      input_octets: totalOctets(numberAttr(attrs, "Acct-Input-Octets"), numberAttr(attrs, "Acct-Input-Gigawords")),
      output_octets: totalOctets(numberAttr(attrs, "Acct-Output-Octets"), numberAttr(attrs, "Acct-Output-Gigawords")),
    },
    terminateCause: intAttr(attrs, "Acct-Terminate-Cause")?.toString(),
    framedIp: stringAttr(attrs, "Framed-IP-Address"),
    // Where CoA and Disconnect requests go: the address the packet came from (what reaches the
    // gateway, through a port forward when it sits behind NAT), else the one it names.
    nasIp: source ?? stringAttr(attrs, "NAS-IP-Address"),
  };
}

export class PacketHandler {
  private readonly secrets = new LRUCache<string, RadiusSecret>({ max: SECRETS_MAX });

  constructor(private readonly deps: PacketHandlerDeps) {}

  /** The hand-off starts after the sockets are bound (it registers where this instance is reached). */
  setHandoff(handoff: EapHandoff): void {
    this.deps.handoff = handoff;
  }

  /** The reply to send, or undefined to stay silent. Throws only on infrastructure faults (database). */
  async handle(kind: PortKind, datagram: Buffer, source?: string, tls?: TlsOrigin): Promise<Buffer | undefined> {
    const verified = await this.verify(kind, datagram, tls);
    if (!verified) return undefined;
    if (kind === "auth") {
      const eap = eapMessageOf(verified.request.raw);
      if (eap) return this.eapRound(verified, eap);
      return this.encodeAccess(verified, await this.decideAccess(verified));
    }
    await this.deps.account({ nas: verified.nas, at: new Date(), rec: accountingRecord(verified.request.attributes, source) });
    this.deps.events.count("accounting", "accounted");
    return encodeReply(verified.request, CODE.AccountingResponse, [], verified.secret);
  }

  private async verify(kind: PortKind, datagram: Buffer, tls: TlsOrigin | undefined): Promise<Verified | undefined> {
    const packet = wellFormed(datagram);
    if (!packet) return this.drop(kind, "malformed packet");
    if (packet[0] !== (kind === "auth" ? CODE.AccessRequest : CODE.AccountingRequest)) return this.drop(kind, "wrong code for this port");
    let request: Decoded;
    try {
      request = decodePacket(packet);
    } catch {
      return this.drop(kind, "undecodable attributes");
    }
    const attrs = request.attributes;
    // Cached answers come back synchronously: awaiting only real promises saves a turn per packet.
    const found = this.deps.nas.find(accessPointMacs(stringAttr(attrs, "Called-Station-Id"), stringAttr(attrs, "NAS-Identifier")));
    const nas = found instanceof Promise ? await found : found;
    if (!nas) return this.drop(kind, "unknown access point");
    const { device } = nas;
    if (tls?.accountId !== undefined && device.account_id !== tls.accountId) return this.drop(kind, "access point of another account", device.id);
    const secret = tls ? tls.secret : this.secretOf(device.radius_secret);
    const ma = checkMessageAuthenticator(packet, secret);
    if (ma === "invalid") return this.drop(kind, "bad Message-Authenticator", device.id);
    if (kind === "auth") {
      if (ma === "absent" && this.deps.config.radius.requireMessageAuthenticator) return this.drop(kind, "no Message-Authenticator", device.id);
      // RFC 3579 section 3.2: an Access-Request with EAP-Message must carry Message-Authenticator.
      if (ma === "absent" && eapMessageOf(packet)) return this.drop(kind, "EAP-Message without Message-Authenticator", device.id);
    } else if (!accountingAuthenticatorValid(packet, secret)) {
      return this.drop(kind, "bad accounting authenticator", device.id);
    }
    tls?.heard(device.id);
    const heard = this.deps.nas.markHeard(device);
    if (heard) await heard;
    return { request, nas, secret, tls };
  }

  private async decideAccess({ request, nas, secret }: Verified): Promise<AccessDecision> {
    const attrs = request.attributes;
    const userName = stringAttr(attrs, "User-Name");
    // User-Password is decrypted only for a portal or Passpoint credential (MAC authentication sends a public one).
    const isCredential = userName !== undefined && (isCredentialUsername(userName) || isPasspointUsername(userName));
    const proof = isCredential ? this.proof(request, secret) : NO_PROOF;
    const decision = await authorizeAccess(this.deps.access, nas, { userName, proof, clientMac: leadingMac(stringAttr(attrs, "Calling-Station-Id")) });
    const { log, events } = this.deps;
    // A portal credential's User-Name is half of a one-time secret: it is never logged.
    if (!decision.accept) {
      events.reject(decision.reason, { deviceId: nas.device.id, userName: isCredential ? REDACTED : userName });
      return decision;
    }
    events.count("access", "accept");
    if (log.level === "debug" || log.level === "trace") {
      log.debug({ deviceId: nas.device.id, userName: isCredential ? REDACTED : userName, accept: true, via: decision.via }, "radius access");
    }
    return decision;
  }

  /** One round of an EAP conversation: a challenge, or the end (accept with the MPPE keys, or reject). */
  private async eapRound(verified: Verified, eapMessage: Buffer): Promise<Buffer | undefined> {
    const { request, nas, secret } = verified;
    const { eap, events } = this.deps;
    const attrs = request.attributes;
    const deviceId = nas.device.id;
    if (!eap) {
      events.reject("EAP is not enabled", { deviceId });
      return encodeReply(request, CODE.AccessReject, new WithRawAttributes(undefined, EAP_SUPPORT_ERRORS.disabled(eapMessage)), secret);
    }
    const outcome = await eap.round({ eap: eapMessage, state: octetsAttr(attrs, "State"), deviceId, framedMtu: numberAttr(attrs, "Framed-MTU") });
    if (outcome.kind === "discard") return this.drop("auth", outcome.reason, deviceId);
    if (outcome.kind === "elsewhere") {
      const radsec = verified.tls ? { accountId: verified.tls.accountId ?? null } : undefined;
      const answer = await this.deps.handoff?.forward(outcome.owner, request.raw, { radsec });
      if (answer) return answer;
      events.reject("EAP conversation of an instance that did not answer", { deviceId });
      return encodeReply(request, CODE.AccessReject, new WithRawAttributes(undefined, EAP_SUPPORT_ERRORS.disabled(eapMessage)), secret);
    }
    if (outcome.kind === "challenge") {
      events.count("access", "challenge");
      return encodeReply(request, CODE.AccessChallenge, new WithRawAttributes(undefined, outcome.attributes), secret);
    }
    if (outcome.kind === "reject") {
      events.reject(outcome.reason, { deviceId });
      return encodeReply(request, CODE.AccessReject, new WithRawAttributes(undefined, outcome.attributes), secret);
    }
    const { identity } = outcome;
    const decision = await authorizeAccess(this.deps.access, nas, { userName: identity.userName, proof: identity.proof, clientMac: leadingMac(stringAttr(attrs, "Calling-Station-Id")) });
    const shownName = isCredentialUsername(identity.userName) ? REDACTED : identity.userName;
    if (!decision.accept) {
      events.reject(decision.reason, { deviceId, userName: shownName, eap: identity.proof.kind });
      return encodeReply(request, CODE.AccessReject, new WithRawAttributes(undefined, outcome.failure), secret);
    }
    events.count("access", "accept");
    const keys = mppeKeyAttributes(outcome.msk, secret.octets, request.authenticator);
    return encodeReply(request, CODE.AccessAccept, new WithRawAttributes(decision.attributes, Buffer.concat([outcome.success, keys])), secret);
  }

  private encodeAccess({ request, secret }: Verified, decision: AccessDecision): Buffer {
    if (decision.accept) return encodeReply(request, CODE.AccessAccept, decision.attributes, secret);
    return encodeReply(request, CODE.AccessReject, decision.replyMessage ? [["Reply-Message", decision.replyMessage]] : [], secret);
  }

  private secretOf(text: string): RadiusSecret {
    let secret = this.secrets.get(text);
    if (!secret) {
      secret = new RadiusSecret(text);
      this.secrets.set(text, secret);
    }
    return secret;
  }

  private proof(request: Decoded, secret: RadiusSecret): PasswordProof {
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

  private drop(kind: PortKind, reason: string, deviceId?: number): undefined {
    this.deps.events.drop(TYPE_OF_PORT[kind], reason, deviceId === undefined ? {} : { deviceId });
    return undefined;
  }
}
