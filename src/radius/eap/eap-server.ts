/**
 * The EAP conversations of one RADIUS server (RFC 3579): an EAP-Response in, the next
 * EAP-Request out as an Access-Challenge with State, until EAP-Success in an Access-Accept (with
 * the MS-MPPE keys) or EAP-Failure in an Access-Reject. EAP-TTLS (RFC 5281) with PAP inside and
 * EAP-TLS (RFC 5216; TLS 1.3 per RFC 9190); TLS itself is node:tls (tls-conversation.ts).
 *
 * A conversation lives in this instance's memory (a live TLS session cannot be written down);
 * its State names it, and eap-handoff.ts lets another instance hand this one its rounds.
 */
import { type X509Certificate, randomBytes } from "node:crypto";
import type { SecureContext } from "node:tls";
import type { EapConfig } from "../../eap-config.js";
import { clientCertificateRefusal, commonNameOf } from "./eap-certificates.js";
import {
  EAP_CODE,
  EAP_TYPE,
  FLAG,
  Reassembly,
  type TlsMethod,
  decodeEap,
  decodeTlsFragment,
  eapMessageAttributes,
  encodeEap,
  encodeTlsFragment,
  fragmentsOf,
} from "./eap-packet.js";
import { TlsConversation, TlsSessionCache } from "./tls-conversation.js";
import { innerPapOf } from "./ttls-avp.js";
import type { PasswordProof } from "../password-check.js";

/** The largest TLS message we reassemble from a peer (a client's certificate chain fits many times). */
const MAX_TLS_MESSAGE = 64 * 1024;
/** The State attribute: a tag that marks it as ours, then the instance's id and the conversation's. */
const STATE_TAG = Buffer.from("eap1");
const STATE_LENGTH = STATE_TAG.length + 8 + 16;
/** EAP header (5) plus flags and TLS Message Length (5) inside an EAP-Message of Framed-MTU. */
const EAP_TLS_OVERHEAD = 10;

const METHOD_TYPE = { ttls: EAP_TYPE.Ttls, tls: EAP_TYPE.Tls } as const;

export interface EapContexts {
  ttls: SecureContext;
  tls: SecureContext;
  /** The CAs an EAP-TLS client certificate must chain to. */
  clientCas: X509Certificate[];
}

/** What the rules say of the person behind a finished method (access.service.ts decides). */
export interface EapIdentity {
  userName: string;
  proof: PasswordProof;
}

/** What to answer a round with; the packet handler signs it. */
export type EapOutcome =
  /** Access-Challenge with these attributes (EAP-Message, State). */
  | { kind: "challenge"; attributes: Buffer }
  /** The method succeeded: authorise `identity`; if accepted, send `success` and the MPPE keys of `msk`. */
  | { kind: "authenticated"; identity: EapIdentity; success: Buffer; msk: Buffer; failure: Buffer }
  /** Access-Reject with EAP-Failure. */
  | { kind: "reject"; reason: string; attributes: Buffer }
  /** The conversation is held by the instance `owner`: hand it the round (eap-handoff.ts). */
  | { kind: "elsewhere"; owner: Buffer }
  /** Silently discarded (RFC 3579 section 2.6.2: an EAP packet that is not a valid response). */
  | { kind: "discard"; reason: string };

export interface EapRoundInput {
  eap: Buffer;
  state: Buffer | undefined;
  /** The access point's device id: a conversation is answered only for the device that began it. */
  deviceId: number;
  framedMtu: number | undefined;
}

interface Conversation {
  id: Buffer;
  deviceId: number;
  identity: string;
  method: TlsMethod | undefined;
  /** The identifier of the last EAP-Request sent; the response must carry it. */
  lastId: number;
  contexts: EapContexts;
  tls: TlsConversation | undefined;
  incoming: Reassembly;
  outgoing: Buffer[];
  committed: boolean;
  expiresAt: number;
}

export class EapServer {
  /** This instance's id in State, so that another instance can tell whose conversation a round belongs to. */
  readonly instanceId = randomBytes(8);
  private readonly conversations = new Map<string, Conversation>();
  private readonly methods: TlsMethod[];
  private contexts: Promise<EapContexts> | undefined;
  private readonly sessions: TlsSessionCache;

  /**
   * `loadContexts` makes the TLS contexts on the first conversation (issuing a server certificate
   * costs a key pair: a server that never sees EAP never pays it); a failure is retried next time.
   */
  constructor(
    private readonly config: Readonly<EapConfig>,
    private readonly loadContexts: () => Promise<EapContexts>,
  ) {
    this.methods = config.methods.map((m) => METHOD_TYPE[m]);
    this.sessions = new TlsSessionCache(config.maxConversations, config.sessionCacheSeconds * 1000);
  }

  private contextsNow(): Promise<EapContexts> {
    this.contexts ??= this.loadContexts().catch((err) => {
      this.contexts = undefined;
      throw err;
    });
    return this.contexts;
  }

  get size(): number {
    return this.conversations.size;
  }

  /** The instance id a State names, or undefined when the State is not one of ours. */
  static instanceOf(state: Buffer): Buffer | undefined {
    if (state.length !== STATE_LENGTH || !state.subarray(0, STATE_TAG.length).equals(STATE_TAG)) return undefined;
    return state.subarray(STATE_TAG.length, STATE_TAG.length + 8);
  }

  holds(state: Buffer): boolean {
    return this.conversations.has(state.toString("hex"));
  }

  async round(input: EapRoundInput, now = Date.now()): Promise<EapOutcome> {
    const eap = decodeEap(input.eap);
    if (!eap || eap.code !== EAP_CODE.Response) return { kind: "discard", reason: "EAP-Message is not an EAP-Response" };
    if (!input.state) {
      if (eap.type !== EAP_TYPE.Identity) return this.failWithout(eap.identifier, "EAP conversation without State that does not start with an Identity");
      return this.begin(eap.data.toString("utf8"), eap.identifier, input.deviceId, await this.contextsNow(), now);
    }
    const owner = EapServer.instanceOf(input.state);
    if (owner && !owner.equals(this.instanceId)) return { kind: "elsewhere", owner };
    const key = input.state.toString("hex");
    const c = this.conversations.get(key);
    if (!c || c.expiresAt <= now) {
      if (c) this.end(c);
      return this.failWithout(eap.identifier, "EAP State unknown or expired");
    }
    if (c.deviceId !== input.deviceId) return { kind: "discard", reason: "EAP State of another access point" };
    if (eap.identifier !== c.lastId) return { kind: "discard", reason: "EAP identifier does not answer the last request" };
    c.expiresAt = now + this.config.conversationTimeoutSeconds * 1000;
    try {
      return await this.step(c, eap.type, eap.data, input.framedMtu);
    } catch (err) {
      return this.fail(c, `EAP conversation failed: ${(err as Error).message}`);
    }
  }

  /** Closes every conversation (the server stops). */
  close(): void {
    for (const c of this.conversations.values()) c.tls?.destroy();
    this.conversations.clear();
  }

  /** Drops conversations whose peer went quiet. */
  sweep(now = Date.now()): void {
    for (const c of this.conversations.values()) if (c.expiresAt <= now) this.end(c);
  }

  private begin(identity: string, responseId: number, deviceId: number, contexts: EapContexts, now: number): EapOutcome {
    if (this.methods.length === 0) return this.failWithout(responseId, "no EAP method is enabled");
    if (this.conversations.size >= this.config.maxConversations) this.sweep(now);
    if (this.conversations.size >= this.config.maxConversations) return this.failWithout(responseId, "too many EAP conversations in progress");
    const id = Buffer.concat([STATE_TAG, this.instanceId, randomBytes(16)]);
    const c: Conversation = {
      id,
      deviceId,
      identity,
      method: undefined,
      lastId: responseId,
      contexts,
      tls: undefined,
      incoming: new Reassembly(MAX_TLS_MESSAGE),
      outgoing: [],
      committed: false,
      expiresAt: now + this.config.conversationTimeoutSeconds * 1000,
    };
    this.conversations.set(id.toString("hex"), c);
    return this.start(c, this.methods[0]);
  }

  private start(c: Conversation, method: TlsMethod): EapOutcome {
    c.method = method;
    c.tls?.destroy();
    // EAP-TTLS is never resumed: a resuming peer skips the inner PAP (RFC 5281 section 7.6), and
    // a credential (a portal one is single-use) must be checked on every authentication.
    const tls = method === EAP_TYPE.Tls;
    c.tls = new TlsConversation(c.contexts[tls ? "tls" : "ttls"], tls, tls ? this.sessions : undefined);
    // The Start packet (S flag; TTLS version 0 in the low bits).
    return this.request(c, encodeTlsFragment(FLAG.S, Buffer.alloc(0)));
  }

  private async step(c: Conversation, type: number | undefined, data: Buffer, framedMtu: number | undefined): Promise<EapOutcome> {
    if (type === EAP_TYPE.Nak) {
      // Legacy Nak (RFC 3748 section 5.3.1): only before the method has exchanged anything.
      if (c.tls?.secure || c.incoming.pending || c.outgoing.length > 0) return this.fail(c, "EAP Nak in the middle of a method");
      const wanted = [...data].find((t): t is TlsMethod => this.methods.includes(t as TlsMethod) && t !== c.method);
      if (wanted === undefined) return this.fail(c, `the peer wants EAP methods we do not offer (${[...data].join(",") || "none"})`);
      return this.start(c, wanted);
    }
    if (type !== c.method || !c.tls) return this.fail(c, `EAP type ${type} in a conversation of type ${c.method}`);
    const fragment = decodeTlsFragment(data);
    if (!fragment) return this.fail(c, "EAP-TLS fragment cut short");
    const tls = c.tls;
    if (fragment.data.length === 0 && !(fragment.flags & FLAG.M)) {
      // An acknowledgement: of our fragment (send the next), or of our last flight.
      const next = c.outgoing.shift();
      if (next) return this.request(c, next);
      if (tls.secure) return this.finish(c);
      return this.fail(c, "empty EAP-TLS response before the handshake finished");
    }
    if (c.outgoing.length > 0) return this.fail(c, "the peer sent data while our fragments were pending");
    const whole = c.incoming.add(fragment);
    if (whole === "invalid") return this.fail(c, "EAP-TLS fragments do not add up to their TLS Message Length");
    if (whole === "more") return this.request(c, encodeTlsFragment(0, Buffer.alloc(0)));
    await tls.feed(whole);
    if (tls.error) return this.fail(c, `TLS: ${tls.error.message}`);
    if (c.method === EAP_TYPE.Ttls && tls.secure) {
      const inner = tls.takePlaintext();
      if (inner.length > 0) return this.finishTtls(c, inner);
    }
    if (c.method === EAP_TYPE.Tls && tls.secure && tls.protocol === "TLSv1.3" && !c.committed) {
      // RFC 9190 section 2.5: one octet of 0x00 application data says no more handshake messages follow.
      c.committed = true;
      await tls.send(Buffer.from([0]));
    }
    const out = tls.takeOutput();
    if (out.length > 0) {
      const size = Math.min(this.config.fragmentSize, framedMtu ? Math.max(64, framedMtu - EAP_TLS_OVERHEAD) : Number.POSITIVE_INFINITY);
      c.outgoing = fragmentsOf(out, size);
      return this.request(c, c.outgoing.shift() as Buffer);
    }
    if (tls.secure) return this.finish(c);
    return this.fail(c, "TLS did not answer the peer's message");
  }

  /** The handshake is over and acknowledged: EAP-TLS is done; EAP-TTLS still needs the inner credentials. */
  private finish(c: Conversation): EapOutcome {
    const tls = c.tls as TlsConversation;
    if (c.method === EAP_TYPE.Ttls) return this.fail(c, "EAP-TTLS ended without inner credentials");
    const cert = tls.socket.getPeerX509Certificate();
    if (!cert) return this.fail(c, "no client certificate");
    const refusal = clientCertificateRefusal(cert, c.contexts.clientCas);
    if (refusal) return this.fail(c, `client certificate refused: ${refusal}`);
    const commonName = commonNameOf(cert);
    const identity: EapIdentity = {
      userName: commonName ?? c.identity,
      proof: {
        kind: "eap-tls",
        commonName,
        certificate: { subject: cert.subject.replaceAll("\n", ", "), serialNumber: cert.serialNumber, fingerprint256: cert.fingerprint256.replaceAll(":", ""), validTo: cert.validTo },
      },
    };
    return this.authenticated(c, identity);
  }

  private finishTtls(c: Conversation, inner: Buffer): EapOutcome {
    const pap = innerPapOf(inner);
    if (typeof pap === "string") return this.fail(c, pap);
    return this.authenticated(c, { userName: pap.userName, proof: { kind: "pap", password: pap.password } });
  }

  private authenticated(c: Conversation, identity: EapIdentity): EapOutcome {
    const tls = c.tls as TlsConversation;
    const msk = mskOf(tls, c.method as TlsMethod);
    this.end(c);
    return {
      kind: "authenticated",
      identity,
      msk,
      success: eapMessageAttributes(encodeEap(EAP_CODE.Success, c.lastId)),
      failure: eapMessageAttributes(encodeEap(EAP_CODE.Failure, c.lastId)),
    };
  }

  /** The next EAP-Request of the method, in an Access-Challenge with the conversation's State. */
  private request(c: Conversation, typeData: Buffer): EapOutcome {
    c.lastId = (c.lastId + 1) & 0xff;
    const eap = encodeEap(EAP_CODE.Request, c.lastId, c.method, typeData);
    const state = Buffer.alloc(2 + c.id.length);
    state[0] = 24;
    state[1] = state.length;
    c.id.copy(state, 2);
    return { kind: "challenge", attributes: Buffer.concat([eapMessageAttributes(eap), state]) };
  }

  private fail(c: Conversation, reason: string): EapOutcome {
    this.end(c);
    return this.failWithout(c.lastId, reason);
  }

  private failWithout(identifier: number, reason: string): EapOutcome {
    return { kind: "reject", reason, attributes: eapMessageAttributes(encodeEap(EAP_CODE.Failure, identifier)) };
  }

  private end(c: Conversation): void {
    c.tls?.destroy();
    this.conversations.delete(c.id.toString("hex"));
  }
}

/**
 * The MSK (first 64 octets) and EMSK: TLS 1.2 uses the method's PRF label (RFC 5216 section 2.3,
 * RFC 5281 section 8); TLS 1.3 the exporter label of RFC 9190 section 2.3 with the method's Type
 * as context (RFC 9427 section 2.1 for EAP-TTLS).
 */
export function mskOf(tls: TlsConversation, method: TlsMethod): Buffer {
  if (tls.protocol === "TLSv1.3") return tls.socket.exportKeyingMaterial(128, "EXPORTER_EAP_TLS_Key_Material", Buffer.from([method]));
  // No context at all (RFC 5705's PRF(master, label, client.random + server.random)): not an empty one.
  const noContext = undefined as unknown as Buffer;
  return tls.socket.exportKeyingMaterial(128, method === EAP_TYPE.Tls ? "client EAP encryption" : "ttls keying material", noContext);
}

/** EAP-Failure answers for requests no conversation takes. */
export const EAP_SUPPORT_ERRORS = {
  /** EAP is switched off (EAP_METHODS empty): fail the peer's EAP at once. */
  disabled(eapMessage: Buffer): Buffer {
    return eapMessageAttributes(encodeEap(EAP_CODE.Failure, eapMessage.length >= 2 ? eapMessage[1] : 0));
  },
};
