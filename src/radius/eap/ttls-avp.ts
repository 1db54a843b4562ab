/**
 * The AVPs a TTLS peer sends inside the tunnel (RFC 5281 section 10: Diameter AVP framing, each
 * padded to 4 octets). Inner PAP needs only User-Name (1) and User-Password (2); a peer pads
 * its password with NULs to a multiple of 16 (section 11.2.5), which are removed.
 */

const AVP_FLAG_VENDOR = 0x80;
const USER_NAME = 1;
const USER_PASSWORD = 2;

export interface InnerPap {
  userName: string;
  password: string;
}

/** The inner User-Name and User-Password, or a sentence saying what is wrong. */
export function innerPapOf(data: Buffer): InnerPap | string {
  let userName: string | undefined;
  let password: string | undefined;
  let off = 0;
  while (off < data.length) {
    if (off + 8 > data.length) return "an inner AVP is cut short";
    const code = data.readUInt32BE(off);
    const flags = data[off + 4];
    const length = data.readUIntBE(off + 5, 3);
    const head = flags & AVP_FLAG_VENDOR ? 12 : 8;
    if (length < head || off + length > data.length) return "an inner AVP has a bad length";
    const vendor = flags & AVP_FLAG_VENDOR ? data.readUInt32BE(off + 8) : 0;
    const value = data.subarray(off + head, off + length);
    if (vendor === 0 && code === USER_NAME) userName = value.toString("utf8");
    if (vendor === 0 && code === USER_PASSWORD) {
      let end = value.length;
      while (end > 0 && value[end - 1] === 0) end--;
      password = value.subarray(0, end).toString("utf8");
    }
    off += Math.ceil(length / 4) * 4;
  }
  if (userName === undefined || password === undefined) return "the tunnel carried no User-Name and User-Password (only PAP is offered inside EAP-TTLS)";
  return { userName, password };
}
