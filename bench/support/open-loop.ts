/**
 * Open-loop load for the capacity benchmark: requests sent at a fixed rate whatever the answers do
 * (a venue's gateways and phones do not wait for the server), each answer's latency recorded, and
 * what never came back counted. RADIUS over UDP (Access- and Accounting-Requests signed as a gateway
 * signs them) and HTTP over kept-alive connections.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { type Socket, createSocket } from "node:dgram";
import http from "node:http";

export interface PathStats {
  name: string;
  /** Requests per second the schedule asked for, averaged over the path's active time. */
  offered: number;
  sent: number;
  answered: number;
  /** Answered, but not with success (Access-Reject, HTTP status other than expected). */
  failed: number;
  latencies: number[];
  /** When each answered request was sent (ms, on the path's own clock), beside its latency. */
  sentAt: number[];
  /** Seconds the path was sending. */
  seconds: number;
}

/**
 * The p99 of each `windowS`-second window of a path's run, by when requests were sent: whether its
 * slow answers came at the start (empty caches), in the login burst, or all along.
 */
export function p99ByWindow(stats: PathStats, windowS: number): number[] {
  if (stats.sentAt.length === 0) return [];
  let first = Number.POSITIVE_INFINITY;
  for (const t of stats.sentAt) first = Math.min(first, t);
  const windows: number[][] = [];
  for (let i = 0; i < stats.sentAt.length; i++) {
    const w = Math.floor((stats.sentAt[i] - first) / (windowS * 1000));
    windows[w] ??= [];
    windows[w].push(stats.latencies[i]);
  }
  return Array.from(windows, (w) => (w ? percentile(w.sort((a, b) => a - b), 0.99) : Number.NaN));
}

export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Sends `rate` per second from `startS` for `seconds`, by calling `fire` once per request. */
export class Schedule {
  private timer: NodeJS.Timeout | undefined;
  sent = 0;

  constructor(
    private readonly rate: number,
    private readonly startS: number,
    readonly seconds: number,
    private readonly fire: (n: number) => void,
  ) {}

  start(t0: number): void {
    const tick = () => {
      const elapsed = (performance.now() - t0) / 1000 - this.startS;
      if (elapsed < 0) return;
      const due = Math.floor(Math.min(elapsed, this.seconds) * this.rate);
      while (this.sent < due) this.fire(this.sent++);
      if (elapsed >= this.seconds) this.stop();
    };
    this.timer = setInterval(tick, 5);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

function attr(type: number, value: Buffer | string): Buffer {
  const v = typeof value === "string" ? Buffer.from(value) : value;
  return Buffer.concat([Buffer.from([type, v.length + 2]), v]);
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** RFC 2865 User-Password hiding. */
function hidePassword(password: string, secret: string, authenticator: Buffer): Buffer {
  const p = Buffer.alloc(Math.max(16, Math.ceil(Buffer.byteLength(password) / 16) * 16));
  p.write(password);
  const out = Buffer.alloc(p.length);
  let prev = authenticator;
  for (let i = 0; i < p.length; i += 16) {
    const b = createHash("md5").update(secret).update(prev).digest();
    for (let j = 0; j < 16; j++) out[i + j] = p[i + j] ^ b[j];
    prev = out.subarray(i, i + 16);
  }
  return out;
}

function packet(code: number, id: number, authenticator: Buffer, attrs: Buffer[]): Buffer {
  const body = Buffer.concat(attrs);
  const p = Buffer.alloc(20 + body.length);
  p[0] = code;
  p[1] = id;
  p.writeUInt16BE(p.length, 2);
  authenticator.copy(p, 4);
  body.copy(p, 20);
  return p;
}

/** A MAC authentication as CoovaChilli sends it (User-Name = password = the client MAC), with Message-Authenticator. */
export function macAuthRequest(id: number, secret: string, ap: string, client: string): Buffer {
  const auth = randomBytes(16);
  const p = packet(1, id, auth, [
    attr(80, Buffer.alloc(16)),
    attr(1, client),
    attr(2, hidePassword(client, secret, auth)),
    attr(30, `${ap}:Venue`),
    attr(31, client),
    attr(4, Buffer.from([127, 0, 0, 1])),
  ]);
  createHmac("md5", secret).update(p).digest().copy(p, 22);
  return p;
}

/** An Interim-Update with absolute counters, signed (RFC 2866 Request Authenticator). */
export function interimRequest(id: number, secret: string, ap: string, client: string, sessionId: string, c: { time: number; input: number; output: number }): Buffer {
  const p = packet(4, id, Buffer.alloc(16), [
    attr(40, u32(3)),
    attr(44, sessionId),
    attr(1, client),
    attr(30, `${ap}:Venue`),
    attr(31, client),
    attr(4, Buffer.from([127, 0, 0, 1])),
    attr(46, u32(c.time)),
    attr(42, u32(c.input)),
    attr(43, u32(c.output)),
  ]);
  createHash("md5").update(p).update(secret).digest().copy(p, 4);
  return p;
}

/**
 * RADIUS requests over a set of UDP sockets (each has 256 Identifiers; many sockets let thousands be
 * outstanding, as many gateways would). An Identifier still unanswered when its turn comes again
 * counts as lost.
 */
export class RadiusPath {
  readonly stats: PathStats;
  private sockets: { socket: Socket; sentAt: Float64Array; next: number }[] = [];
  private turn = 0;

  constructor(
    name: string,
    private readonly port: number,
    private readonly okCode: number,
    sockets = 64,
  ) {
    this.stats = { name, offered: 0, sent: 0, answered: 0, failed: 0, latencies: [], sentAt: [], seconds: 0 };
    for (let s = 0; s < sockets; s++) {
      const socket = createSocket("udp4");
      const slot = { socket, sentAt: new Float64Array(256), next: 0 };
      socket.on("message", (msg) => {
        const at = slot.sentAt[msg[1]];
        if (at === 0) return;
        slot.sentAt[msg[1]] = 0;
        this.stats.answered++;
        if (msg[0] !== this.okCode) this.stats.failed++;
        this.stats.latencies.push(performance.now() - at);
        this.stats.sentAt.push(at);
      });
      socket.bind(0, "127.0.0.1");
      this.sockets.push(slot);
    }
  }

  send(build: (id: number) => Buffer): void {
    const slot = this.sockets[this.turn++ % this.sockets.length];
    const id = slot.next;
    slot.next = (slot.next + 1) & 255;
    const p = build(id);
    slot.sentAt[id] = performance.now();
    this.stats.sent++;
    slot.socket.send(p, this.port, "127.0.0.1");
  }

  close(): void {
    for (const s of this.sockets) s.socket.close();
  }
}

/** HTTP requests over kept-alive connections; `ok` tells which status is success. */
export class HttpPath {
  readonly stats: PathStats;
  private readonly agent: http.Agent;

  constructor(
    name: string,
    private readonly port: number,
    private readonly ok: (status: number) => boolean,
    maxSockets = 32,
  ) {
    this.stats = { name, offered: 0, sent: 0, answered: 0, failed: 0, latencies: [], sentAt: [], seconds: 0 };
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  send(method: "GET" | "POST", path: string, headers: Record<string, string>, body?: string): void {
    const start = performance.now();
    this.stats.sent++;
    const req = http.request({ host: "127.0.0.1", port: this.port, method, path, headers, agent: this.agent, timeout: 30_000 }, (res) => {
      res.resume();
      res.on("end", () => {
        this.stats.answered++;
        if (!this.ok(res.statusCode ?? 0)) this.stats.failed++;
        this.stats.latencies.push(performance.now() - start);
        this.stats.sentAt.push(start);
      });
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => undefined);
    req.end(body);
  }

  close(): void {
    this.agent.destroy();
  }
}
