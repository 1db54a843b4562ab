/**
 * EAP (RFC 3748) inside RADIUS (RFC 3579): the EAP packet carried in one or more EAP-Message
 * attributes, and the flags and fragments of the TLS-based methods (RFC 5216 section 3.1, the
 * same framing for EAP-TTLS, RFC 5281 section 9.1). Works on raw octets: the packet handler has
 * already checked the RADIUS packet is well formed.
 */

export const EAP_CODE = { Request: 1, Response: 2, Success: 3, Failure: 4 } as const;
export const EAP_TYPE = { Identity: 1, Nak: 3, Tls: 13, Ttls: 21 } as const;
export type TlsMethod = typeof EAP_TYPE.Tls | typeof EAP_TYPE.Ttls;

/** RFC 5216 section 3.1: Length included, More fragments, Start. */
export const FLAG = { L: 0x80, M: 0x40, S: 0x20 } as const;

const EAP_MESSAGE = 79;
const RADIUS_HEADER = 20;
/** An attribute's value is at most 253 octets (RFC 3579 section 3.1 splits EAP across several). */
const ATTR_VALUE_MAX = 253;

export interface EapPacket {
  code: number;
  identifier: number;
  /** Absent for Success and Failure. */
  type: number | undefined;
  /** The type data (after the Type octet). */
  data: Buffer;
}

/** The EAP packet of a well-formed RADIUS packet: its EAP-Message values joined in order; undefined when none. */
export function eapMessageOf(radius: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  for (let off = RADIUS_HEADER; off < radius.length; off += radius[off + 1]) {
    if (radius[off] === EAP_MESSAGE) parts.push(radius.subarray(off + 2, off + radius[off + 1]));
  }
  return parts.length === 0 ? undefined : Buffer.concat(parts);
}

/** Decodes an EAP packet, or undefined when its Length does not match the octets (RFC 3579 section 3.1: discard). */
export function decodeEap(octets: Buffer): EapPacket | undefined {
  if (octets.length < 4) return undefined;
  const length = octets.readUInt16BE(2);
  if (length !== octets.length) return undefined;
  const code = octets[0];
  if (code === EAP_CODE.Success || code === EAP_CODE.Failure) return length === 4 ? { code, identifier: octets[1], type: undefined, data: Buffer.alloc(0) } : undefined;
  if (code !== EAP_CODE.Request && code !== EAP_CODE.Response) return undefined;
  if (length < 5) return undefined;
  return { code, identifier: octets[1], type: octets[4], data: octets.subarray(5) };
}

export function encodeEap(code: number, identifier: number, type?: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const head = type === undefined ? 4 : 5;
  const out = Buffer.alloc(head + data.length);
  out[0] = code;
  out[1] = identifier;
  out.writeUInt16BE(out.length, 2);
  if (type !== undefined) out[4] = type;
  data.copy(out, head);
  return out;
}

/** The EAP packet as EAP-Message attributes (type, length, value), split at 253 octets. */
export function eapMessageAttributes(eap: Buffer): Buffer {
  const count = Math.max(1, Math.ceil(eap.length / ATTR_VALUE_MAX));
  const out = Buffer.alloc(eap.length + 2 * count);
  let at = 0;
  for (let off = 0; off < eap.length || at === 0; off += ATTR_VALUE_MAX) {
    const piece = eap.subarray(off, off + ATTR_VALUE_MAX);
    out[at] = EAP_MESSAGE;
    out[at + 1] = piece.length + 2;
    piece.copy(out, at + 2);
    at += piece.length + 2;
    if (eap.length === 0) break;
  }
  return out;
}

export interface TlsFragment {
  flags: number;
  /** TLS Message Length, when the L flag is set. */
  totalLength: number | undefined;
  data: Buffer;
}

/** The flags, length and TLS data of an EAP-TLS or EAP-TTLS packet's type data; undefined when cut short. */
export function decodeTlsFragment(typeData: Buffer): TlsFragment | undefined {
  if (typeData.length < 1) return undefined;
  const flags = typeData[0];
  if (flags & FLAG.L) {
    if (typeData.length < 5) return undefined;
    return { flags, totalLength: typeData.readUInt32BE(1), data: typeData.subarray(5) };
  }
  return { flags, totalLength: undefined, data: typeData.subarray(1) };
}

/** Type data with flags (and the TLS Message Length when `totalLength` is given) before `data`. */
export function encodeTlsFragment(flags: number, data: Buffer, totalLength?: number): Buffer {
  const head = totalLength === undefined ? 1 : 5;
  const out = Buffer.alloc(head + data.length);
  out[0] = totalLength === undefined ? flags : flags | FLAG.L;
  if (totalLength !== undefined) out.writeUInt32BE(totalLength, 1);
  data.copy(out, head);
  return out;
}

/**
 * Cuts one outgoing TLS message into EAP fragments of at most `size` octets of TLS data: every
 * fragment but the last carries M, the first carries L with the whole length when there are
 * several (RFC 5216 section 2.1.5).
 */
export function fragmentsOf(message: Buffer, size: number): Buffer[] {
  if (message.length <= size) return [encodeTlsFragment(0, message)];
  const out: Buffer[] = [];
  for (let off = 0; off < message.length; off += size) {
    const last = off + size >= message.length;
    out.push(encodeTlsFragment(last ? 0 : FLAG.M, message.subarray(off, off + size), off === 0 ? message.length : undefined));
  }
  return out;
}

/** Collects incoming fragments until the message is whole; refuses more than `max` octets. */
export class Reassembly {
  private parts: Buffer[] = [];
  private received = 0;
  private expected: number | undefined;

  constructor(private readonly max: number) {}

  get pending(): boolean {
    return this.parts.length > 0;
  }

  /** The whole message once the last fragment arrived; "more" to ack; "invalid" on a length violation. */
  add(fragment: TlsFragment): Buffer | "more" | "invalid" {
    if (fragment.totalLength !== undefined && this.expected === undefined) {
      if (fragment.totalLength > this.max) return "invalid";
      this.expected = fragment.totalLength;
    }
    this.received += fragment.data.length;
    if (this.received > this.max || (this.expected !== undefined && this.received > this.expected)) return "invalid";
    this.parts.push(fragment.data);
    if (fragment.flags & FLAG.M) return "more";
    const whole = Buffer.concat(this.parts);
    const expected = this.expected;
    this.parts = [];
    this.received = 0;
    this.expected = undefined;
    if (expected !== undefined && whole.length !== expected) return "invalid";
    return whole;
  }
}
