/**
 * Dynamic authorization client (RFC 5176): a CoA-Request (new limits for a live session) or a
 * Disconnect-Request (end it) sent over UDP to the gateway, retried with back-off until an ACK or
 * NAK arrives or the attempts run out.
 *
 * Every request carries Message-Authenticator (RFC 3579 section 3.2, computed with the
 * authenticator field zeroed, as for Accounting-Request) and the Request Authenticator of RFC 5176
 * section 2.3 (MD5 over the packet with a zeroed authenticator, then the secret). A retransmission
 * is the same packet (same Identifier, same authenticator), as the RFC asks, so the gateway can
 * recognise it. An answer counts only when it comes from the address asked, carries the request's
 * Identifier, a valid Response Authenticator and, when present, a valid Message-Authenticator.
 */
import { createHash, createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { type Socket, createSocket } from "node:dgram";
import { isIP } from "node:net";

export const COA_CODE = {
  DisconnectRequest: 40,
  DisconnectAck: 41,
  DisconnectNak: 42,
  CoaRequest: 43,
  CoaAck: 44,
  CoaNak: 45,
} as const;

const ATTR = {
  UserName: 1,
  NasIpAddress: 4,
  FramedIpAddress: 8,
  CallingStationId: 31,
  AcctSessionId: 44,
  EventTimestamp: 55,
  MessageAuthenticator: 80,
  ErrorCause: 101,
} as const;

const HEADER = 20;
const MAX_PACKET = 4096;

export interface CoaTarget {
  /** The gateway's address (IPv4 or IPv6). */
  address: string;
  port: number;
  secret: string;
}

/** Which session: the attributes the gateway matches it by (RFC 5176 section 3). */
export interface SessionIdentity {
  acctSessionId: string;
  userName: string;
  /** Calling-Station-Id, as XX-XX-XX-XX-XX-XX (the form most gateways send), or "". */
  clientMac: string;
  framedIp: string | null;
}

export interface CoaAnswer {
  result: "ack" | "nak" | "timeout";
  /** Error-Cause of a NAK (RFC 5176 section 3.5), when it says. */
  errorCause: number | null;
  attempts: number;
}

export interface CoaSendOptions {
  /** Wait for the first attempt; each retry waits twice as long as the one before. */
  timeoutMs: number;
  attempts: number;
}

function attr(type: number, value: Buffer): Buffer {
  if (value.length > 253) throw new RangeError("attribute too long");
  return Buffer.concat([Buffer.from([type, value.length + 2]), value]);
}

function ipv4(address: string): Buffer | undefined {
  if (isIP(address) !== 4) return undefined;
  return Buffer.from(address.split(".").map(Number));
}

/** "AA:BB:CC:DD:EE:FF" as IEEE 802 / RFC 3580 form "AA-BB-CC-DD-EE-FF". */
function stationId(mac: string): string {
  return mac.replaceAll(":", "-").toUpperCase();
}

/** The identification attributes of a session, in the order FreeRADIUS's own tools put them. */
export function identityAttributes(s: SessionIdentity, now = new Date()): Buffer[] {
  const out: Buffer[] = [];
  if (s.userName) out.push(attr(ATTR.UserName, Buffer.from(s.userName, "utf8").subarray(0, 253)));
  out.push(attr(ATTR.AcctSessionId, Buffer.from(s.acctSessionId, "utf8").subarray(0, 253)));
  if (s.clientMac) out.push(attr(ATTR.CallingStationId, Buffer.from(stationId(s.clientMac), "ascii")));
  const framed = s.framedIp ? ipv4(s.framedIp) : undefined;
  if (framed) out.push(attr(ATTR.FramedIpAddress, framed));
  const ts = Buffer.alloc(4);
  ts.writeUInt32BE(Math.floor(now.getTime() / 1000) >>> 0);
  out.push(attr(ATTR.EventTimestamp, ts));
  return out;
}

/**
 * A signed request: Message-Authenticator first (BlastRADIUS), computed over the packet with
 * the authenticator and its own value zeroed; then the Request Authenticator over the result.
 */
export function encodeCoaRequest(code: number, identifier: number, attributes: Buffer[], secret: string): Buffer {
  const body = Buffer.concat([attr(ATTR.MessageAuthenticator, Buffer.alloc(16)), ...attributes]);
  const length = HEADER + body.length;
  if (length > MAX_PACKET) throw new RangeError("request would exceed 4096 octets");
  const packet = Buffer.alloc(length);
  packet[0] = code;
  packet[1] = identifier;
  packet.writeUInt16BE(length, 2);
  body.copy(packet, HEADER);
  createHmac("md5", secret).update(packet).digest().copy(packet, HEADER + 2);
  createHash("md5").update(packet).update(secret, "utf8").digest().copy(packet, 4);
  return packet;
}

/** The answer's code and Error-Cause when it is a genuine answer to `request`, else undefined. */
export function verifyCoaAnswer(request: Buffer, answer: Buffer, secret: string): { code: number; errorCause: number | null } | undefined {
  if (answer.length < HEADER) return undefined;
  const length = answer.readUInt16BE(2);
  if (length < HEADER || length > answer.length || answer[1] !== request[1]) return undefined;
  const packet = Buffer.from(answer.subarray(0, length));
  const expected: number[] = request[0] === COA_CODE.DisconnectRequest ? [COA_CODE.DisconnectAck, COA_CODE.DisconnectNak] : [COA_CODE.CoaAck, COA_CODE.CoaNak];
  if (!expected.includes(packet[0])) return undefined;
  const given = Buffer.from(packet.subarray(4, 20));
  request.copy(packet, 4, 4, 20);
  const digest = createHash("md5").update(packet).update(secret, "utf8").digest();
  if (!timingSafeEqual(digest, given)) return undefined;
  let errorCause: number | null = null;
  for (let off = HEADER; off < length; ) {
    const type = packet[off];
    const len = packet[off + 1];
    if (len < 2 || off + len > length) return undefined;
    if (type === ATTR.MessageAuthenticator) {
      if (len !== 18) return undefined;
      const copy = Buffer.from(packet);
      copy.fill(0, off + 2, off + 18);
      const mac = createHmac("md5", secret).update(copy).digest();
      if (!timingSafeEqual(mac, packet.subarray(off + 2, off + 18))) return undefined;
    } else if (type === ATTR.ErrorCause && len === 6) {
      errorCause = packet.readUInt32BE(off + 2);
    }
    off += len;
  }
  return { code: packet[0], errorCause };
}

/**
 * Sends the request and waits for its answer: `attempts` tries, the first waiting `timeoutMs`,
 * each later one twice as long. Never throws for the network (an unreachable gateway is a timeout).
 */
export async function sendCoaRequest(target: CoaTarget, code: 40 | 43, attributes: Buffer[], options: CoaSendOptions): Promise<CoaAnswer> {
  const identifier = randomInt(256);
  const request = encodeCoaRequest(code, identifier, attributes, target.secret);
  const family = isIP(target.address) === 6 ? "udp6" : "udp4";
  const socket: Socket = createSocket(family);
  socket.on("error", () => {});
  let attempts = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(0, () => {
        socket.off("error", reject);
        resolve();
      });
    });
    let settle: ((a: { code: number; errorCause: number | null }) => void) | undefined;
    const answered = new Promise<{ code: number; errorCause: number | null }>((resolve) => (settle = resolve));
    socket.on("message", (msg, rinfo) => {
      if (rinfo.address !== target.address && rinfo.address !== `::ffff:${target.address}`) return;
      const verified = verifyCoaAnswer(request, msg, target.secret);
      if (verified) settle?.(verified);
    });
    let wait = options.timeoutMs;
    for (attempts = 1; attempts <= options.attempts; attempts++) {
      socket.send(request, target.port, target.address, () => {});
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), wait)));
      const got = await Promise.race([answered, timeout]);
      clearTimeout(timer);
      if (got) {
        const ack = got.code === COA_CODE.DisconnectAck || got.code === COA_CODE.CoaAck;
        return { result: ack ? "ack" : "nak", errorCause: got.errorCause, attempts };
      }
      wait *= 2;
    }
    return { result: "timeout", errorCause: null, attempts: options.attempts };
  } catch {
    return { result: "timeout", errorCause: null, attempts };
  } finally {
    socket.close();
  }
}

/** An open RadSec connection of the gateway (radsec-peers.ts): requests of ours travel over it. */
export interface CoaConnection {
  exchange(build: (identifier: number) => Buffer, timeoutMs: number): Promise<Buffer | undefined>;
}

/**
 * The same request over the gateway's own RadSec connection (RFC 6614 section 2.5), signed with
 * "radsec". Sent once: over a reliable transport a resend is the transport's business (RFC 6613
 * section 2.6), so it waits as long as every UDP attempt would have together.
 */
export async function sendCoaOverConnection(connection: CoaConnection, code: 40 | 43, attributes: Buffer[], secret: string, options: CoaSendOptions): Promise<CoaAnswer> {
  let request: Buffer | undefined;
  const waitMs = options.timeoutMs * (2 ** options.attempts - 1);
  const answer = await connection.exchange((identifier) => {
    request = encodeCoaRequest(code, identifier, attributes, secret);
    return request;
  }, waitMs);
  const verified = answer && request ? verifyCoaAnswer(request, answer, secret) : undefined;
  if (!verified) return { result: "timeout", errorCause: null, attempts: 1 };
  const ack = verified.code === COA_CODE.DisconnectAck || verified.code === COA_CODE.CoaAck;
  return { result: ack ? "ack" : "nak", errorCause: verified.errorCause, attempts: 1 };
}
