/**
 * EAP across instances. A conversation's TLS session cannot leave the memory of the instance that
 * began it (a live node:tls socket cannot be written down), so the conversation stays there: its
 * State names that instance, the eap_instances table says where the instance's RADIUS
 * authentication socket is reached, and an instance that receives a round of another's
 * conversation (a load balancer that does not keep a NAS on one instance) hands it the datagram
 * and relays its answer. The NAS's own signature travels unchanged and the owner checks it again;
 * the hand-off itself is signed with a key derived from the shared secret-box key (the database's
 * or SECRET_BOX_KEY), so only instances of the same database can hand rounds to each other.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type Socket, createSocket } from "node:dgram";
import { LRUCache } from "lru-cache";
import type { DB } from "../../db/database.js";
import { nowDatetime } from "../../db/time.js";

const REQUEST_MAGIC = Buffer.from("GWEAP-FWD1");
const REPLY_MAGIC = Buffer.from("GWEAP-RPL1");
const ID = 8;
/** magic, id, sent-at (ms), flags, account id, HMAC-SHA256. */
const HEADER = REQUEST_MAGIC.length + ID + 8 + 1 + 4;
const MAC = 32;
const NO_ACCOUNT = 0xffffffff;
const FLAG_RADSEC = 1;
/** A hand-off older than this is refused (replays). */
const MAX_AGE_MS = 30_000;
/** How long the owner has to answer a handed round (the NAS retries after its own timeout). */
const ANSWER_WITHIN_MS = 3_000;

/** Where a handed round came from on the instance that received it. */
export interface HandedOrigin {
  /** It came over RadSec, for this account (null: an operator-trusted client): sign with the RadSec secret. */
  radsec: { accountId: number | null } | undefined;
}

export interface HandedRound {
  id: Buffer;
  datagram: Buffer;
  origin: HandedOrigin;
}

export class EapHandoff {
  private readonly pending = new Map<string, { resolve: (reply: Buffer | undefined) => void; timer: NodeJS.Timeout }>();
  private readonly addresses = new LRUCache<string, { host: string; port: number }>({ max: 1_000, ttl: 60_000 });

  private constructor(
    private readonly db: DB,
    readonly instanceHex: string,
    private readonly key: Buffer,
    private readonly socket: Socket,
  ) {
    socket.on("message", (msg) => this.answered(msg));
    socket.on("error", () => {});
  }

  /** Registers this instance (its id and where its authentication socket is reached) and opens the hand-off socket. */
  static async start(db: DB, instanceId: Buffer, address: string, secretBoxKey: Buffer): Promise<EapHandoff> {
    const key = createHmac("sha256", secretBoxKey).update("eap-handoff").digest();
    const socket = createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, resolve));
    socket.unref();
    const instanceHex = instanceId.toString("hex");
    await db.insertInto("eap_instances").values({ instance_id: instanceHex, address, started_at: nowDatetime() }).execute();
    return new EapHandoff(db, instanceHex, key, socket);
  }

  /** Hands `datagram` to the instance `owner` and waits for its answer; undefined when it is gone or silent. */
  async forward(owner: Buffer, datagram: Buffer, origin: HandedOrigin): Promise<Buffer | undefined> {
    const target = await this.addressOf(owner.toString("hex"));
    if (!target) return undefined;
    const id = randomBytes(ID);
    const header = Buffer.alloc(HEADER);
    let off = REQUEST_MAGIC.copy(header, 0);
    off += id.copy(header, off);
    header.writeBigUInt64BE(BigInt(Date.now()), off);
    off += 8;
    header[off++] = origin.radsec ? FLAG_RADSEC : 0;
    header.writeUInt32BE(origin.radsec?.accountId ?? NO_ACCOUNT, off);
    const mac = createHmac("sha256", this.key).update(header).update(datagram).digest();
    const answer = new Promise<Buffer | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id.toString("hex"));
        resolve(undefined);
      }, ANSWER_WITHIN_MS);
      this.pending.set(id.toString("hex"), { resolve, timer });
    });
    this.socket.send(Buffer.concat([header, mac, datagram]), target.port, target.host);
    return answer;
  }

  /** True when `msg` (arriving on the authentication socket) is a hand-off rather than a RADIUS packet. */
  static isHandoff(msg: Buffer): boolean {
    return msg.length > REQUEST_MAGIC.length && msg.subarray(0, REQUEST_MAGIC.length).equals(REQUEST_MAGIC);
  }

  /** The round in a hand-off, or undefined when its signature or age is wrong. */
  open(msg: Buffer, now = Date.now()): HandedRound | undefined {
    if (msg.length < HEADER + MAC + 20) return undefined;
    const header = msg.subarray(0, HEADER);
    const datagram = msg.subarray(HEADER + MAC);
    const expected = createHmac("sha256", this.key).update(header).update(datagram).digest();
    if (!timingSafeEqual(expected, msg.subarray(HEADER, HEADER + MAC))) return undefined;
    let off = REQUEST_MAGIC.length;
    const id = Buffer.from(msg.subarray(off, off + ID));
    off += ID;
    const sentAt = Number(msg.readBigUInt64BE(off));
    off += 8;
    if (Math.abs(now - sentAt) > MAX_AGE_MS) return undefined;
    const flags = msg[off++];
    const account = msg.readUInt32BE(off);
    const radsec = flags & FLAG_RADSEC ? { accountId: account === NO_ACCOUNT ? null : account } : undefined;
    return { id, datagram, origin: { radsec } };
  }

  /** The owner's answer to a handed round, to send back to where the hand-off came from. */
  static answer(id: Buffer, reply: Buffer): Buffer {
    return Buffer.concat([REPLY_MAGIC, id, reply]);
  }

  private answered(msg: Buffer): void {
    if (msg.length < REPLY_MAGIC.length + ID || !msg.subarray(0, REPLY_MAGIC.length).equals(REPLY_MAGIC)) return;
    const key = msg.subarray(REPLY_MAGIC.length, REPLY_MAGIC.length + ID).toString("hex");
    const waiting = this.pending.get(key);
    if (!waiting) return;
    this.pending.delete(key);
    clearTimeout(waiting.timer);
    waiting.resolve(Buffer.from(msg.subarray(REPLY_MAGIC.length + ID)));
  }

  private async addressOf(instanceHex: string): Promise<{ host: string; port: number } | undefined> {
    const known = this.addresses.get(instanceHex);
    if (known) return known;
    const row = await this.db.selectFrom("eap_instances").select("address").where("instance_id", "=", instanceHex).executeTakeFirst();
    if (!row) return undefined;
    const cut = row.address.lastIndexOf(":");
    const address = { host: row.address.slice(0, cut).replace(/^\[|\]$/g, ""), port: Number(row.address.slice(cut + 1)) };
    this.addresses.set(instanceHex, address);
    return address;
  }

  /** Unregisters this instance (its conversations end with it) and closes the socket. */
  async stop(): Promise<void> {
    for (const w of this.pending.values()) {
      clearTimeout(w.timer);
      w.resolve(undefined);
    }
    this.pending.clear();
    this.socket.close();
    await this.db.deleteFrom("eap_instances").where("instance_id", "=", this.instanceHex).execute();
  }
}
