/**
 * A RadSec client of our own, for what radsecproxy cannot be made to do: many requests written at
 * once, answering our CoA over its connection, a forced TLS version, packets cut anywhere. It
 * frames the stream by the RADIUS Length field (RFC 6613 section 2.1).
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { type TLSSocket, connect } from "node:tls";

export interface ClientTls {
  certificate: string;
  privateKey: string;
  caCertificate: string;
}

export interface RadsecClient {
  socket: TLSSocket;
  /** Packets received so far, in order. */
  received: Buffer[];
  /** Resolves with the next packet matching `pred` (already received or to come), or rejects after `ms`. */
  next(pred?: (p: Buffer) => boolean, ms?: number): Promise<Buffer>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
  close(): void;
}

export function connectRadsec(port: number, tls: ClientTls, opts: { minVersion?: "TLSv1.2" | "TLSv1.3"; maxVersion?: "TLSv1.2" | "TLSv1.3" } = {}): Promise<RadsecClient> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: "127.0.0.1",
      port,
      cert: tls.certificate,
      key: tls.privateKey,
      ca: [tls.caCertificate],
      servername: "localhost",
      minVersion: opts.minVersion,
      maxVersion: opts.maxVersion,
    });
    const received: Buffer[] = [];
    let waiters: { pred: (p: Buffer) => boolean; done: (p: Buffer) => void }[] = [];
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readUInt16BE(2)) {
        const p = pending.subarray(0, pending.readUInt16BE(2));
        pending = pending.subarray(p.length);
        received.push(p);
        const w = waiters.find((x) => x.pred(p));
        if (w) {
          waiters = waiters.filter((x) => x !== w);
          w.done(p);
        }
      }
    });
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.once("error", reject);
    socket.once("secureConnect", () => {
      socket.off("error", reject);
      socket.on("error", () => {});
      resolve({
        socket,
        received,
        closed,
        close: () => socket.destroy(),
        next(pred = () => true, ms = 10_000) {
          const seen = received.find(pred);
          if (seen) {
            received.splice(received.indexOf(seen), 1);
            return Promise.resolve(seen);
          }
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error("no packet in time")), ms);
            waiters.push({
              pred,
              done: (p) => {
                clearTimeout(timer);
                received.splice(received.indexOf(p), 1);
                res(p);
              },
            });
          });
        },
      });
    });
  });
}

/** A Status-Server (RFC 5997 section 3) signed with the secret: Message-Authenticator over the packet with the Request Authenticator. */
export function statusServerBytes(secret: string, identifier: number): Buffer {
  const p = Buffer.alloc(38);
  p[0] = 12;
  p[1] = identifier;
  p.writeUInt16BE(38, 2);
  randomBytes(16).copy(p, 4);
  p[20] = 80;
  p[21] = 18;
  createHmac("md5", secret).update(p).digest().copy(p, 22);
  return p;
}

/** Whether a response carries the Response Authenticator of RFC 2865 section 3 for `request`. */
export function responseAuthenticatorValid(request: Buffer, response: Buffer, secret: string): boolean {
  const copy = Buffer.from(response);
  request.copy(copy, 4, 4, 20);
  const expected = createHash("md5").update(copy).update(secret).digest();
  return expected.equals(response.subarray(4, 20));
}
