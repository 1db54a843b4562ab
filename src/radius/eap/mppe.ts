/**
 * MS-MPPE-Recv-Key and MS-MPPE-Send-Key (RFC 2548 section 2.4.2 and 2.4.3): the MSK's first and
 * second 32 octets (RFC 5216 section 2.3), each hidden with the device secret and the Request
 * Authenticator behind a random salt whose high bit is set.
 */
import { randomBytes } from "node:crypto";
import { md5 } from "../../md5.js";

const VENDOR_SPECIFIC = 26;
const MICROSOFT = 311;
const MS_MPPE_SEND_KEY = 16;
const MS_MPPE_RECV_KEY = 17;

/** One salt-encrypted MS-MPPE key attribute (the whole Vendor-Specific attribute). */
function mppeKeyAttribute(vendorType: number, key: Buffer, secret: Buffer, requestAuthenticator: Buffer, salt: Buffer): Buffer {
  // Plaintext: Key-Length octet, key, zero padding to a multiple of 16.
  const plain = Buffer.alloc(Math.ceil((key.length + 1) / 16) * 16);
  plain[0] = key.length;
  key.copy(plain, 1);
  const cipher = Buffer.alloc(plain.length);
  let previous = Buffer.concat([requestAuthenticator, salt]);
  for (let i = 0; i < plain.length; i += 16) {
    const b = md5(secret, previous);
    for (let j = 0; j < 16; j++) cipher[i + j] = plain[i + j] ^ b[j];
    previous = cipher.subarray(i, i + 16);
  }
  const value = Buffer.concat([salt, cipher]);
  const out = Buffer.alloc(8 + value.length);
  out[0] = VENDOR_SPECIFIC;
  out[1] = out.length;
  out.writeUInt32BE(MICROSOFT, 2);
  out[6] = vendorType;
  out[7] = value.length + 2;
  value.copy(out, 8);
  return out;
}

/** Both key attributes for an MSK of at least 64 octets, with two distinct salts. */
export function mppeKeyAttributes(msk: Buffer, secret: Buffer, requestAuthenticator: Buffer): Buffer {
  const salts = randomBytes(4);
  salts[0] |= 0x80;
  salts[2] |= 0x80;
  if (salts[0] === salts[2] && salts[1] === salts[3]) salts[3] ^= 1;
  return Buffer.concat([
    mppeKeyAttribute(MS_MPPE_RECV_KEY, msk.subarray(0, 32), secret, requestAuthenticator, salts.subarray(0, 2)),
    mppeKeyAttribute(MS_MPPE_SEND_KEY, msk.subarray(32, 64), secret, requestAuthenticator, salts.subarray(2, 4)),
  ]);
}
