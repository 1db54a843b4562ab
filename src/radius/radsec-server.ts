/**
 * The RadSec listener (RADIUS over TLS, RFC 6614; framing of RFC 6613): TLS 1.2 and 1.3 on TCP
 * 2083, a client certificate required and checked against the service's CA, then against
 * device_certificates (revoked, expired or unknown certificates are closed before a packet is
 * read). Packets go to the same PacketHandler as UDP, signed with the secret "radsec"; any number
 * may be in flight on one connection. Status-Server (RFC 5997) is answered here. CoA and
 * Disconnect that we originate travel back over the connection (radsec-peers.ts).
 *
 * Bounds: a handshake must finish within RADSEC_HANDSHAKE_TIMEOUT_MS; a connection silent both
 * ways for RADSEC_IDLE_TIMEOUT is closed; at RADSEC_MAX_CONNECTIONS the longest idle connection
 * makes room for a new one; a packet whose Length is outside 20..4096 closes its connection (the
 * stream cannot be resynchronised); a connection with 256 requests in flight, or with replies it
 * does not read, is not read further until it catches up.
 */
import { X509Certificate } from "node:crypto";
import { type TLSSocket, type Server as TlsServer, createServer } from "node:tls";
import type { FastifyBaseLogger } from "fastify";
import { type Config, ListenError } from "../config.js";
import { LRUCache } from "lru-cache";
import { certificateHolder, serviceCa } from "../modules/device-certificates/device-certificates.service.js";
import { issueCertificate } from "../modules/device-certificates/certificate-authority.js";
import type { CertificateHolder } from "../modules/device-certificates/device-certificates.repository.js";
import { DuplicateCache } from "./duplicate-cache.js";
import type { PacketHandler, TlsOrigin } from "./packet-handler.js";
import type { RadiusEvents } from "./radius-events.js";
import { CODE, type Decoded, MAX_PACKET, RadiusSecret, checkMessageAuthenticator, encodeReply, wellFormed } from "./radius-codec.js";
import type { RadiusCtx } from "./radius.repository.js";
import type { RadsecConnection, RadsecPeers } from "./radsec-peers.js";

/** RFC 6614 section 2.3: the shared secret over TLS. */
export const RADSEC_SECRET = "radsec";
const STATUS_SERVER = 12;
const DYNAMIC_ANSWERS = new Set([41, 42, 44, 45]);
const HEADER = 20;
/** Requests of one connection being processed at once (its Identifier has 256 values). */
const MAX_IN_FLIGHT_PER_CONNECTION = 256;
/** Replies a connection has not read yet beyond which it is not read further. */
const MAX_UNREAD_REPLIES = 256 * 1024;
/** Room above the open connections for handshakes under way. */
const HANDSHAKE_RESERVE = 1024;
/** How long a certificate's holder (device, revocation) is trusted before it is asked again. */
const HOLDER_TTL_MS = 5_000;
const DUPLICATE_WINDOW_MS = 30_000;

export interface RadsecListener {
  port: number;
  /** Open (authenticated) connections. */
  readonly connections: number;
  stop(): Promise<void>;
}

export interface RadsecDeps {
  config: Readonly<Config>;
  log: FastifyBaseLogger;
  ctx: RadiusCtx;
  handler: PacketHandler;
  events: RadiusEvents;
  peers: RadsecPeers;
}

export interface TlsMaterial {
  cert: string;
  key: string;
  /** The service's CA first, then the operator-trusted ones (RADSEC_CLIENT_CA_FILE). */
  ca: string[];
}

/** Whom a connection speaks for: a device (and its account) by its issued certificate, or an operator-trusted gateway. */
type Identity = { kind: "device"; serial: string; holder: CertificateHolder } | { kind: "operator"; serial: string };

/** The server's certificate (RADSEC_CERT, or one issued now by the CA for RADSEC_SERVER_NAMES) and the CA clients must chain to. */
export async function radsecTlsMaterial(ctx: RadiusCtx, config: Readonly<Config>): Promise<TlsMaterial> {
  const ca = await serviceCa(ctx.db, config);
  const trusted = [ca.certificate, ...config.radsec.clientCas];
  if (config.radsec.serverCert && config.radsec.serverKey) return { cert: config.radsec.serverCert, key: config.radsec.serverKey, ca: trusted };
  const now = Date.now();
  const issued = await issueCertificate(ca, {
    commonName: config.radsec.serverNames[0] ?? "localhost",
    usage: "server",
    altNames: config.radsec.serverNames,
    notBefore: new Date(now - 5 * 60_000),
    notAfter: new Date(now + 365 * 86_400_000),
  });
  return { cert: `${issued.certificate}${ca.certificate}`, key: issued.privateKey, ca: trusted };
}

export async function startRadsec(deps: RadsecDeps, tls: TlsMaterial): Promise<RadsecListener> {
  const { config, log, handler, events, peers, ctx } = deps;
  const cfg = config.radsec;
  const secret = new RadiusSecret(RADSEC_SECRET);
  const idleMs = cfg.idleTimeoutSeconds * 1000;
  const duplicates = new DuplicateCache(DUPLICATE_WINDOW_MS, 100_000);
  const holders = new LRUCache<string, { holder: CertificateHolder | undefined; until: number }>({ max: 100_000 });
  /** Authenticated connections, least recently active first (the one to close when full). */
  const active = new Map<Connection, true>();
  let closed = false;
  let inFlight = 0;
  let idle: (() => void) | undefined;

  async function holderOf(serial: string): Promise<CertificateHolder | undefined> {
    const now = Date.now();
    const hit = holders.get(serial);
    if (hit && hit.until > now) return hit.holder;
    const holder = await certificateHolder(ctx, serial, new Date(now));
    holders.set(serial, { holder, until: now + HOLDER_TTL_MS });
    return holder;
  }
  const forgetRevoked = peers.onRevoked((serials) => {
    for (const serial of serials) holders.delete(serial);
  });

  class Connection implements RadsecConnection {
    readonly remoteAddress: string;
    readonly remotePort: number;
    private pending: Buffer | undefined;
    private requests = 0;
    private readonly ours = new Map<number, (answer: Buffer | undefined) => void>();
    private nextId = 0;
    private ended = false;
    readonly origin: TlsOrigin;

    readonly serial: string;

    constructor(
      private readonly socket: TLSSocket,
      readonly identity: Identity,
    ) {
      this.serial = identity.serial;
      this.remoteAddress = socket.remoteAddress ?? "";
      this.remotePort = socket.remotePort ?? 0;
      const accountId = identity.kind === "device" ? identity.holder.account_id : undefined;
      this.origin = { secret, accountId, heard: (deviceId) => peers.heard(this, deviceId) };
    }

    private get deviceId(): number | undefined {
      return this.identity.kind === "device" ? this.identity.holder.device_id : undefined;
    }

    start(): void {
      const s = this.socket;
      s.setTimeout(idleMs, () => this.close("idle"));
      s.on("data", (chunk: Buffer) => this.read(chunk));
      s.on("drain", () => this.maybeResume());
      s.on("close", () => this.gone());
      s.on("error", (err) => log.debug({ err, peer: this.remoteAddress }, "radsec connection error"));
      s.resume();
    }

    private read(chunk: Buffer): void {
      active.delete(this);
      active.set(this, true);
      let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
      while (buf.length >= 4) {
        const length = buf.readUInt16BE(2);
        if (length < HEADER || length > MAX_PACKET) {
          events.drop("access", "radsec packet length out of range", { deviceId: this.deviceId });
          this.close("bad packet length");
          return;
        }
        if (buf.length < length) break;
        // A copy: the packet outlives this chunk (the duplicate cache, replies built later).
        this.dispatch(Buffer.from(buf.subarray(0, length)));
        buf = buf.subarray(length);
      }
      this.pending = buf.length > 0 ? Buffer.from(buf) : undefined;
    }

    private dispatch(packet: Buffer): void {
      const code = packet[0];
      if (DYNAMIC_ANSWERS.has(code)) {
        const waiter = this.ours.get(packet[1]);
        if (waiter) waiter(packet);
        return;
      }
      if (code === STATUS_SERVER) this.statusServer(packet);
      else if (code !== CODE.AccessRequest && code !== CODE.AccountingRequest) events.drop("access", "radsec packet of an unexpected code");
      else void this.request(code === CODE.AccessRequest ? "auth" : "acct", packet);
    }

    private async request(kind: "auth" | "acct", packet: Buffer): Promise<void> {
      const type = kind === "auth" ? "access" : "accounting";
      const key = DuplicateCache.key(this.serial, 0, packet);
      const seen = duplicates.begin(key, Date.now());
      if (seen === "pending") return events.drop(type, "retransmission of a request in progress");
      if (seen !== "new") {
        events.count(type, "resent");
        this.write(seen);
        return;
      }
      inFlight++;
      if (++this.requests >= MAX_IN_FLIGHT_PER_CONNECTION) this.socket.pause();
      let reply: Buffer | undefined;
      try {
        // A certificate revoked on another instance is seen here within HOLDER_TTL_MS.
        const holder = this.identity.kind === "device" ? await holderOf(this.serial) : true;
        if (!holder) {
          events.drop(type, "radsec certificate unknown, revoked or expired");
          this.close("certificate revoked or expired");
        } else {
          reply = await handler.handle(kind, packet, this.remoteAddress, this.origin);
        }
      } catch (err) {
        events.count(type, "error");
        log.error({ err, kind }, "radsec request failed; no answer, the client will retry");
      } finally {
        duplicates.finish(key, reply, Date.now());
        if (reply) this.write(reply);
        this.requests--;
        this.maybeResume();
        if (--inFlight === 0) idle?.();
      }
    }

    private statusServer(packet: Buffer): void {
      const p = wellFormed(packet);
      // RFC 5997 section 3: without a valid Message-Authenticator it is discarded.
      if (!p || checkMessageAuthenticator(p, secret) !== "valid") {
        events.drop("status", "Status-Server without a valid Message-Authenticator");
        return;
      }
      const request: Decoded = { code: p[0], identifier: p[1], authenticator: Buffer.from(p.subarray(4, 20)), attributes: {}, raw: p };
      events.count("status", "accept");
      this.write(encodeReply(request, CODE.AccessAccept, [], secret));
    }

    private write(packet: Buffer): void {
      if (this.ended) return;
      this.socket.write(packet);
      if (this.socket.writableLength > MAX_UNREAD_REPLIES) this.socket.pause();
    }

    private maybeResume(): void {
      if (this.ended || this.requests >= MAX_IN_FLIGHT_PER_CONNECTION || this.socket.writableLength > MAX_UNREAD_REPLIES) return;
      if (this.socket.isPaused()) this.socket.resume();
    }

    exchange(build: (identifier: number) => Buffer, timeoutMs: number): Promise<Buffer | undefined> {
      if (this.ended) return Promise.resolve(undefined);
      let id = -1;
      for (let i = 0; i < 256; i++) {
        const candidate = (this.nextId + i) & 0xff;
        if (!this.ours.has(candidate)) {
          id = candidate;
          break;
        }
      }
      if (id < 0) return Promise.resolve(undefined);
      this.nextId = (id + 1) & 0xff;
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(undefined), timeoutMs);
        const done = (answer: Buffer | undefined) => {
          clearTimeout(timer);
          this.ours.delete(id);
          resolve(answer);
        };
        this.ours.set(id, done);
        this.write(build(id));
      });
    }

    close(reason: string): void {
      if (this.ended) return;
      log.debug({ peer: this.remoteAddress, deviceId: this.deviceId, reason }, "radsec connection closed");
      this.socket.destroy();
      this.gone();
    }

    private gone(): void {
      if (this.ended) return;
      this.ended = true;
      active.delete(this);
      peers.remove(this);
      for (const waiter of [...this.ours.values()]) waiter(undefined);
    }
  }

  const serviceCaFingerprint = new X509Certificate(tls.ca[0]).fingerprint256;
  /** The handshake verified the chain; whether it ends at the service's CA decides how the client is identified. */
  const issuedByService = (socket: TLSSocket): boolean => {
    let c = socket.getPeerCertificate(true);
    for (let depth = 0; c && depth < 10; depth++) {
      if (c.fingerprint256 === serviceCaFingerprint) return true;
      if (!c.issuerCertificate || c.issuerCertificate === c) return c.fingerprint256 === serviceCaFingerprint;
      c = c.issuerCertificate;
    }
    return false;
  };

  const identify = async (socket: TLSSocket): Promise<Identity | undefined> => {
    const cert = socket.getPeerX509Certificate();
    if (!cert) return undefined;
    const serial = normalizeSerial(cert);
    if (!issuedByService(socket)) return tls.ca.length > 1 ? { kind: "operator", serial } : undefined;
    const holder = await holderOf(serial);
    return holder ? { kind: "device", serial, holder } : undefined;
  };

  const accept = async (socket: TLSSocket) => {
    socket.pause();
    let identity: Identity | undefined;
    try {
      identity = await identify(socket);
    } catch (err) {
      log.error({ err }, "radsec: certificate look-up failed; connection closed, the client will reconnect");
    }
    if (closed || socket.destroyed) return socket.destroy();
    if (!identity) {
      events.drop("access", "radsec certificate unknown, revoked or expired");
      return socket.destroy();
    }
    if (active.size >= cfg.maxConnections) {
      const [oldest] = active.keys();
      oldest?.close("room for a new connection");
    }
    const c = new Connection(socket, identity);
    active.set(c, true);
    peers.add(c);
    c.start();
  };

  const server: TlsServer = createServer({
    cert: tls.cert,
    key: tls.key,
    ca: tls.ca,
    requestCert: true,
    rejectUnauthorized: true,
    minVersion: "TLSv1.2",
    maxVersion: "TLSv1.3",
    handshakeTimeout: cfg.handshakeTimeoutMs,
    // On the accepted TCP socket itself: a reply must not wait for the peer's delayed ACK (Nagle).
    noDelay: true,
  });
  server.maxConnections = cfg.maxConnections + HANDSHAKE_RESERVE;
  server.on("secureConnection", (socket) => void accept(socket));
  server.on("tlsClientError", (err, socket) => {
    events.handshakeRefused();
    log.debug({ err: err.message, peer: socket.remoteAddress }, "radsec handshake refused");
    socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(cfg.port, cfg.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    throw new ListenError("RadSec", cfg.host, cfg.port, "tcp", ["RADSEC_HOST", "RADSEC_PORT"], err);
  }
  server.on("error", (err) => log.error({ err }, "radsec listener error"));
  const sweep = setInterval(() => duplicates.sweep(Date.now()), 10_000);
  sweep.unref();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : cfg.port;
  log.info({ host: cfg.host, port }, "radsec listening");

  let stopping: Promise<void> | undefined;
  return {
    port,
    get connections() {
      return active.size;
    },
    stop() {
      stopping ??= (async () => {
        closed = true;
        forgetRevoked();
        clearInterval(sweep);
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const c of [...active.keys()]) c.close("shutting down");
        await done;
        if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      })();
      return stopping;
    },
  };
}

/** The serial as device_certificates keeps it: upper-case hex without leading zeros. */
function normalizeSerial(cert: X509Certificate): string {
  return cert.serialNumber.toUpperCase().replace(/^(00)+(?=.)/, "");
}
