/**
 * One TLS conversation run by node:tls over EAP: a server TLSSocket whose transport is a Duplex
 * we feed with the reassembled TLS records of each EAP-Response and whose writes we collect as
 * the next EAP-Request's records. OpenSSL answers a whole flight within a few turns of the event
 * loop; feed() resolves once the socket has been quiet for two turns (a handshake step, an error
 * or decrypted application data each show up as a change).
 */
import { EventEmitter } from "node:events";
import type { Server } from "node:net";
import { Duplex } from "node:stream";
import { LRUCache } from "lru-cache";
import { type SecureContext, TLSSocket } from "node:tls";
import { setImmediate as nextTurn } from "node:timers/promises";

/** A flight that makes no progress for this long is treated as failed (a stuck conversation must not hang a request). */
const FEED_DEADLINE_MS = 5_000;

/**
 * The server-side TLS session cache (session-id resumption, RFC 5216 section 2.1.2; wpa_supplicant
 * offers a session id, not a ticket, by default). node:tls keeps sessions only through a server's
 * newSession/resumeSession events, so the conversations share this emitter as their `server`.
 * Sessions live in this instance's memory for `ttlMs`.
 */
export class TlsSessionCache extends EventEmitter {
  private readonly sessions: LRUCache<string, Buffer>;

  constructor(max: number, ttlMs: number) {
    super();
    this.sessions = new LRUCache({ max, ttl: ttlMs });
    this.on("newSession", (id: Buffer, session: Buffer, done: () => void) => {
      this.sessions.set(id.toString("hex"), session);
      done();
    });
    this.on("resumeSession", (id: Buffer, done: (err: Error | null, session: Buffer | null) => void) => {
      done(null, this.sessions.get(id.toString("hex")) ?? null);
    });
  }

  get size(): number {
    return this.sessions.size;
  }
}

export class TlsConversation {
  readonly socket: TLSSocket;
  private readonly transport: Duplex;
  private output: Buffer[] = [];
  private plaintext: Buffer[] = [];
  private changes = 0;
  error: Error | undefined;
  secure = false;

  /** `sessions`: where sessions are kept for resumption; undefined: never resumed. */
  constructor(context: SecureContext, requestCert: boolean, sessions: TlsSessionCache | undefined) {
    this.transport = new Duplex({
      read() {},
      write: (chunk: Buffer, _encoding, done) => {
        this.output.push(chunk);
        this.changes++;
        done();
      },
    });
    // `server` is only where node:tls emits the session events (see TlsSessionCache).
    const server = sessions as unknown as Server | undefined;
    this.socket = new TLSSocket(this.transport, { isServer: true, server, secureContext: context, requestCert, rejectUnauthorized: false });
    this.socket.on("secure", () => {
      this.secure = true;
      this.changes++;
    });
    this.socket.on("data", (chunk: Buffer) => {
      this.plaintext.push(chunk);
      this.changes++;
    });
    this.socket.on("error", (err) => {
      this.error = err;
      this.changes++;
    });
  }

  /** Hands the peer's TLS records to OpenSSL and waits until it has answered. */
  async feed(records: Buffer): Promise<void> {
    const before = this.changes;
    this.transport.push(records);
    const deadline = Date.now() + FEED_DEADLINE_MS;
    let seen = -1;
    let quiet = 0;
    // Two quiet turns after a first change, or four without any (a record that needs no answer).
    while (quiet < (this.changes === before ? 4 : 2)) {
      await nextTurn();
      if (this.changes === seen) quiet++;
      else {
        seen = this.changes;
        quiet = 0;
      }
      if (Date.now() > deadline) {
        this.error ??= new Error("TLS made no progress");
        return;
      }
    }
  }

  /** Encrypts application data for the peer (the RFC 9190 commitment message); the records appear in takeOutput after settle(). */
  async send(data: Buffer): Promise<void> {
    await new Promise<void>((resolve) => this.socket.write(data, () => resolve()));
    for (let i = 0; i < 2; i++) await nextTurn();
  }

  takeOutput(): Buffer {
    const out = Buffer.concat(this.output);
    this.output = [];
    return out;
  }

  takePlaintext(): Buffer {
    const out = Buffer.concat(this.plaintext);
    this.plaintext = [];
    return out;
  }

  /** TLSv1.2 or TLSv1.3 once the handshake is done. */
  get protocol(): string | null {
    return this.socket.getProtocol();
  }

  destroy(): void {
    this.socket.destroy();
    this.transport.destroy();
  }
}
