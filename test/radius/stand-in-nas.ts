/**
 * A stand-in gateway for dynamic authorization (RFC 5176): a UDP server on loopback that receives
 * CoA-Request and Disconnect-Request packets, checks them on its own (Request Authenticator and
 * Message-Authenticator computed here with node:crypto, not with the product's code), decodes the
 * attributes with the `radius` npm package, and answers as told: ACK, NAK with an Error-Cause, or
 * nothing.
 */
import { createHash, createHmac } from "node:crypto";
import { type Socket, createSocket } from "node:dgram";
import radius from "radius";
import { ensureOracleDictionaries } from "./radius-oracle.js";

export type NasBehaviour = { answer: "ack" } | { answer: "nak"; errorCause: number } | { answer: "silent" };

export interface ReceivedRequest {
  code: string;
  identifier: number;
  attributes: Record<string, unknown>;
  authenticatorValid: boolean;
  messageAuthenticatorValid: boolean;
  /** Message-Authenticator is the first attribute (BlastRADIUS guidance). */
  messageAuthenticatorFirst: boolean;
  raw: Buffer;
}

export interface StandInNas {
  port: number;
  received: ReceivedRequest[];
  behaviour: NasBehaviour;
  /** The shared secret it checks requests and signs answers with (changeable between requests). */
  secret: string;
  close(): Promise<void>;
}

function checkRequest(packet: Buffer, secret: string) {
  const zeroed = Buffer.from(packet);
  zeroed.fill(0, 4, 20);
  const authenticatorValid = createHash("md5").update(zeroed).update(secret).digest().equals(packet.subarray(4, 20));
  let messageAuthenticatorValid = false;
  let messageAuthenticatorFirst = false;
  for (let off = 20; off < packet.length; off += packet[off + 1]) {
    if (packet[off] !== 80) continue;
    messageAuthenticatorFirst = off === 20;
    const copy = Buffer.from(zeroed);
    copy.fill(0, off + 2, off + 18);
    messageAuthenticatorValid = createHmac("md5", secret).update(copy).digest().equals(packet.subarray(off + 2, off + 18));
  }
  return { authenticatorValid, messageAuthenticatorValid, messageAuthenticatorFirst };
}

export async function startStandInNas(secret: string, behaviour: NasBehaviour = { answer: "ack" }): Promise<StandInNas> {
  const socket: Socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const nas: StandInNas = {
    port: socket.address().port,
    received: [],
    behaviour,
    secret,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (msg, rinfo) => {
    const { secret } = nas;
    ensureOracleDictionaries();
    const decoded = radius.decode({ packet: msg, secret, no_secret: true } as never) as unknown as {
      code: string;
      identifier: number;
      attributes: Record<string, unknown>;
    };
    nas.received.push({ code: decoded.code, identifier: decoded.identifier, attributes: decoded.attributes, raw: msg, ...checkRequest(msg, secret) });
    const b = nas.behaviour;
    if (b.answer === "silent") return;
    const disconnect = decoded.code === "Disconnect-Request";
    const code = b.answer === "ack" ? (disconnect ? "Disconnect-ACK" : "CoA-ACK") : disconnect ? "Disconnect-NAK" : "CoA-NAK";
    const reply = radius.encode_response({
      packet: decoded as never,
      code,
      secret,
      attributes: b.answer === "nak" ? [["Error-Cause", b.errorCause]] : [],
    } as never);
    socket.send(reply, rinfo.port, rinfo.address);
  });
  return nas;
}
