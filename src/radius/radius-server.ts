/**
 * The RADIUS listeners: authentication and accounting over UDP, started beside the HTTP API (or
 * alone) and stopped cleanly: sockets closed first, then in-flight packets finish.
 */
import { type RemoteInfo, type Socket, createSocket } from "node:dgram";
import { lookup as dnsLookup } from "node:dns";
import { isIP } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import { backgroundFailures } from "../db/background-failures.js";
import type { DB } from "../db/database.js";
import { createBatchedWriter } from "../db/batched-writer.js";
import { countVisits } from "../modules/guests/guest-activity.service.js";
import type { VisitJob } from "./access.service.js";
import type { AccountingJob } from "./accounting-record.js";
import { recordAccountingBatch } from "./accounting.service.js";
import { DuplicateCache } from "./duplicate-cache.js";
import { PacketHandler, type PortKind, TYPE_OF_PORT } from "./packet-handler.js";
import { RadiusEvents } from "./radius-events.js";
import { type Metrics, createMetrics } from "../metrics.js";
import { ListenError } from "../config.js";
import { NasLookup } from "./nas-lookup.js";
import { PacketTime } from "./packet-time.js";
import { createRepositories } from "../modules/context.js";
import { closeStaleSessions, runDatabaseHousekeeping, staleAfterMs } from "./housekeeping.js";
import { type RadiusCtx, createRadiusRepository } from "./radius.repository.js";
import { AcceptTemplates } from "./reply-attributes.js";
import { VisitMemo } from "./visit-memo.js";
import { SessionMemo } from "./session-memo.js";
import { createSessionControl } from "./session-control.js";
import { RadsecPeers } from "./radsec-peers.js";
import { X509Certificate } from "node:crypto";
import { eapSecureContext, eapTlsMaterial } from "./eap/eap-certificates.js";
import { EapServer } from "./eap/eap-server.js";
import { EapHandoff } from "./eap/eap-handoff.js";
import { secretBoxKey } from "../db/secret-box.js";
import { RadiusSecret } from "./radius-codec.js";
import { RADSEC_SECRET, type RadsecListener, radsecTlsMaterial, startRadsec } from "./radsec-server.js";

export interface RadiusListener {
  /** Ports actually bound (ephemeral ones when the config says 0). */
  authPort: number;
  acctPort: number;
  /** The RadSec listener when RADSEC_ENABLED (its port: an ephemeral one when RADSEC_PORT is 0). */
  radsec: RadsecListener | undefined;
  /** UDP requests read and not yet answered (or dropped): what stop() waits for. */
  readonly inFlight: number;
  stop(): Promise<void>;
}

export interface RadiusDeps {
  db: DB;
  config: Readonly<Config>;
  log: FastifyBaseLogger;
  /** The app's repositories (startService shares the HTTP app's); made for this server when not given. */
  ctx?: RadiusCtx;
  /** The app's metrics (startService shares the HTTP app's, served at /metrics); made when not given. */
  metrics?: Metrics;
  /** The app's open RadSec connections (createAppDeps); made when not given. */
  peers?: RadsecPeers;
}

/** NASes retransmit after a few seconds, a handful of times; 30 s covers that with room to spare. */
const DUPLICATE_WINDOW_MS = 30_000;
const DUPLICATE_MAX_ENTRIES = 100_000;
/**
 * Beyond this many packets of a port being processed, new ones are dropped at once: the NAS retries,
 * the database breathes, memory stays flat, and a flood on one port never starves the other.
 * Authentication is bounded tighter: past a few hundred waiting, an answer would come after the
 * gateway's own timeout anyway. Accounting waits in the batched writer, a few hundred bytes each.
 */
const MAX_IN_FLIGHT: Record<PortKind, number> = { auth: 128, acct: 2_048 };
const HOUSEKEEPING_MS = 10_000;
const PURGE_EVERY_MS = 3_600_000;
/** Stale sessions (three missed Interim-Updates) are closed within this long of going stale. */
const STALE_EVERY_MS = 60_000;
const RECV_BUFFER = 4 * 1024 * 1024;

/**
 * Every reply goes to the address the request came from, an IP literal: dns.lookup would answer it
 * a tick later (a process.nextTick and a closure per reply, about 1 % of an Accounting-Request's
 * CPU). Names, if any, still go to dns.lookup.
 */
const literalLookup = ((hostname: string, options: unknown, callback: (err: Error | null, address: string, family: number) => void) => {
  const family = isIP(hostname);
  if (family === 0) return dnsLookup(hostname, options as never, callback as never);
  callback(null, hostname, family);
}) as unknown as typeof dnsLookup;

function bind(host: string, port: number): Promise<Socket> {
  const socket = createSocket({ type: host.includes(":") ? "udp6" : "udp4", recvBufferSize: RECV_BUFFER, lookup: literalLookup });
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      socket.close();
      reject(err);
    };
    socket.once("error", onError);
    socket.bind(port, host, () => {
      socket.off("error", onError);
      resolve(socket);
    });
  });
}

/** A bind that failed, as a sentence naming the variables to change. */
async function bindNamed(host: string, port: number, portVariable: string): Promise<Socket> {
  try {
    return await bind(host, port);
  } catch (err) {
    throw new ListenError(`RADIUS (${portVariable === "RADIUS_AUTH_PORT" ? "authentication" : "accounting"})`, host, port, "udp", ["RADIUS_HOST", portVariable], err);
  }
}

/** Packets of one client (its sessions, its guest's rows) share a lane of the batched writer. */
const accountingKey = (job: AccountingJob) => job.rec.clientMac ?? job.rec.acctSessionId ?? "";

export async function startRadius({ db, config, log, ctx: given, metrics = createMetrics(), peers: givenPeers }: RadiusDeps): Promise<RadiusListener> {
  const peers = givenPeers ?? (given?.radsecPeers instanceof RadsecPeers ? given.radsecPeers : new RadsecPeers());
  const ctx = given ?? { db, repos: createRepositories(), radius: createRadiusRepository(), sessionControl: createSessionControl({ db, radsec: peers }), radsecPeers: peers };
  // Everything this server remembers belongs to it: a second server in the process shares nothing.
  // Returning guests' visits, counted a burst at a time (countVisits is the guests module's write).
  const writeVisit = createBatchedWriter(db, (jobs: VisitJob[]) => countVisits(db, jobs), (v) => String(v.guestId));
  const access = { ctx, config, visits: new VisitMemo(), times: new PacketTime(), sessions: new SessionMemo(config.radius.sessionMemoEntries, staleAfterMs(config)), templates: new AcceptTemplates(config.radius.interimInterval), writeVisit };
  const events = new RadiusEvents(metrics, log);
  const writeBatch = async (jobs: AccountingJob[]) => {
    try {
      const written = await recordAccountingBatch(access, jobs);
      metrics.accountingCommitted(jobs.length);
      return written;
    } catch (err) {
      metrics.accountingFailed(jobs.length);
      throw err;
    }
  };
  const eap = new EapServer(config.eap, async () => {
    const material = await eapTlsMaterial(ctx, config);
    return { ttls: eapSecureContext(material, "ttls"), tls: eapSecureContext(material, "tls"), clientCas: material.clientCas.map((pem) => new X509Certificate(pem)) };
  });
  const handler = new PacketHandler({ config, log, nas: new NasLookup(ctx), access, account: createBatchedWriter(db, writeBatch, accountingKey), events, eap });
  const radsecSecret = new RadiusSecret(RADSEC_SECRET);
  // The TLS material first: it may wait on the database (the CA), which must not hold sockets open.
  const tls = config.radsec.enabled ? await radsecTlsMaterial(ctx, config) : undefined;
  const auth = await bindNamed(config.radius.host, config.radius.authPort, "RADIUS_AUTH_PORT");
  let acct: Socket;
  let radsec: RadsecListener | undefined;
  try {
    acct = await bindNamed(config.radius.host, config.radius.acctPort, "RADIUS_ACCT_PORT");
  } catch (err) {
    auth.close();
    throw err;
  }
  let handoff: EapHandoff;
  try {
    const host = config.radius.host === "0.0.0.0" ? "127.0.0.1" : config.radius.host === "::" ? "::1" : config.radius.host;
    const address = config.eap.instanceAddress ?? `${host.includes(":") ? `[${host}]` : host}:${auth.address().port}`;
    handoff = await EapHandoff.start(db, eap.instanceId, address, await secretBoxKey(db, config.secretBoxKey));
    handler.setHandoff(handoff);
    if (tls) radsec = await startRadsec({ config, log, ctx, handler, events, peers }, tls);
  } catch (err) {
    auth.close();
    acct.close();
    throw err;
  }
  /** Packets being processed (per port), and who waits for the last one to finish (stop). */
  const busy: Record<PortKind, number> = { auth: 0, acct: 0 };
  let inFlight = 0;
  let idle: (() => void) | undefined;
  let closed = false;

  /** One request, answered (and its answer kept for retransmissions) or dropped; never throws. */
  const respond = async (kind: PortKind, socket: Socket, cache: DuplicateCache, key: string, msg: Buffer, rinfo: RemoteInfo) => {
    let reply: Buffer | undefined;
    try {
      reply = await handler.handle(kind, msg, rinfo.address);
    } catch (err) {
      events.count(TYPE_OF_PORT[kind], "error");
      log.error({ err, kind }, "radius request failed; no answer, the NAS will retry");
    }
    try {
      cache.finish(key, reply, Date.now());
      if (reply && !closed) socket.send(reply, rinfo.port, rinfo.address);
    } catch (err) {
      log.error({ err, kind }, "radius reply not sent; the NAS will retry");
    } finally {
      busy[kind]--;
      if (--inFlight === 0) idle?.();
    }
  };

  /** A round of one of our EAP conversations that another instance received and hands us (eap-handoff.ts). */
  const handed = async (socket: Socket, msg: Buffer, rinfo: RemoteInfo) => {
    const round = handoff.open(msg);
    if (!round) return events.drop("access", "EAP hand-off with a bad signature or too old");
    const origin = round.origin.radsec ? { secret: radsecSecret, accountId: round.origin.radsec.accountId ?? undefined, heard: () => {} } : undefined;
    inFlight++;
    try {
      const reply = await handler.handle("auth", round.datagram, undefined, origin);
      if (reply && !closed) socket.send(EapHandoff.answer(round.id, reply), rinfo.port, rinfo.address);
    } catch (err) {
      events.count("access", "error");
      log.error({ err }, "handed EAP round failed; no answer, the NAS will retry");
    } finally {
      if (--inFlight === 0) idle?.();
    }
  };

  const listen = (kind: PortKind, socket: Socket) => {
    const cache = new DuplicateCache(DUPLICATE_WINDOW_MS, DUPLICATE_MAX_ENTRIES);
    socket.on("error", (err) => log.error({ err, kind }, "radius socket error"));
    const type = TYPE_OF_PORT[kind];
    socket.on("message", (msg, rinfo) => {
      if (closed) return;
      if (msg.length < 20) return events.drop(type, "malformed packet");
      if (kind === "auth" && EapHandoff.isHandoff(msg)) return void handed(socket, msg, rinfo);
      if (busy[kind] >= MAX_IN_FLIGHT[kind]) return events.drop(type, "overloaded");
      const key = DuplicateCache.key(rinfo.address, rinfo.port, msg);
      const seen = cache.begin(key, Date.now());
      if (seen === "pending") return events.drop(type, "retransmission of a request in progress");
      if (seen !== "new") {
        events.count(type, "resent");
        socket.send(seen, rinfo.port, rinfo.address);
        return;
      }
      inFlight++;
      busy[kind]++;
      void respond(kind, socket, cache, key, msg, rinfo);
    });
    return cache;
  };
  const caches = [listen("auth", auth), listen("acct", acct)];

  let lastPurge = 0;
  let lastStale = Date.now();
  const staleFailures = backgroundFailures(log, "closing stale radius sessions");
  const purgeFailures = backgroundFailures(log, "radius housekeeping");
  const housekeeping = setInterval(() => {
    const now = Date.now();
    for (const c of caches) c.sweep(now);
    eap.sweep(now);
    events.flush();
    if (now - lastPurge >= PURGE_EVERY_MS) lastStale = now; // the purge closes them too
    else if (now - lastStale >= STALE_EVERY_MS) {
      lastStale = now;
      closeStaleSessions(ctx, config, new Date(now))
        .then((closed) => {
          staleFailures.succeeded();
          if (closed > 0) log.debug({ closed }, "radius stale sessions closed");
        })
        .catch((err) => staleFailures.failed(err, "it runs again within a minute"));
    }
    if (now - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now;
    runDatabaseHousekeeping(ctx, config, new Date(now))
      .then((done) => {
        purgeFailures.succeeded();
        log.debug(done, "radius housekeeping");
      })
      .catch((err) => purgeFailures.failed(err, "it runs again within the hour"));
  }, HOUSEKEEPING_MS);
  housekeeping.unref();

  const authPort = auth.address().port;
  const acctPort = acct.address().port;
  log.info({ host: config.radius.host, authPort, acctPort }, "radius listening");

  let stopping: Promise<void> | undefined;
  return {
    authPort,
    acctPort,
    radsec,
    get inFlight() {
      return inFlight;
    },
    stop() {
      stopping ??= (async () => {
        closed = true;
        clearInterval(housekeeping);
        await radsec?.stop();
        await Promise.all([auth, acct].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
        if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
        eap.close();
        await handoff.stop().catch((err) => log.warn({ err }, "this instance's EAP registration not removed; it is ignored once no State names it"));
      })();
      return stopping;
    },
  };
}
