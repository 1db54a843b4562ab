/**
 * Requests as exact bytes, for what radclient cannot do: resend the very same packet
 * (retransmission), or send many for one session at once. Built with the `radius` package.
 */
import radius from "radius";
import { ensureOracleDictionaries as ensureDictionaries } from "./radius-oracle.js";

export function accessRequestBytes(secret: string, identifier: number, attributes: [string, string | number][]): Buffer {
  ensureDictionaries();
  return radius.encode({ code: "Access-Request", secret, identifier, attributes, add_message_authenticator: true });
}

export function accountingRequestBytes(secret: string, identifier: number, attributes: [string, string | number][]): Buffer {
  ensureDictionaries();
  return radius.encode({ code: "Accounting-Request", secret, identifier, attributes });
}

export function decodeReply(reply: Buffer): { code: string; attributes: Record<string, unknown> } {
  const d = radius.decode_without_secret({ packet: reply });
  return { code: d.code, attributes: d.attributes };
}
