/**
 * MD5 (RFC 1321) and HMAC-MD5 (RFC 2104), synchronous and over byte ranges. RADIUS is why: every
 * packet needs one to three of them (RFC 2865 authenticators, RFC 3579 Message-Authenticator) on
 * about a hundred octets, where node:crypto spends microseconds per hash creating objects around
 * a fraction of that of hashing. Ranges let a check hash a packet "with these 16 octets zeroed"
 * without copying it, and a key's HMAC pads are hashed once per key instead of once per packet.
 * Checked against node:crypto on random inputs of every length across block boundaries
 * (test/md5.test.ts).
 */

const ZEROS = new Uint8Array(64);

const word = (p: Uint8Array, o: number) => p[o] | (p[o + 1] << 8) | (p[o + 2] << 16) | (p[o + 3] << 24);

/** The four state words of a hash that has been fed whole blocks, and how many octets. */
export interface Md5State {
  words: [number, number, number, number];
  length: number;
}

/** RFC 1321 section 3.3: the state before any input. */
const INITIAL: Md5State = { words: [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476], length: 0 };

/** Writes a state word little-endian. */
function putWord(out: Uint8Array, o: number, v: number): void {
  out[o] = v & 0xff;
  out[o + 1] = (v >>> 8) & 0xff;
  out[o + 2] = (v >>> 16) & 0xff;
  out[o + 3] = (v >>> 24) & 0xff;
}

export class Md5 {
  private h0 = 0;
  private h1 = 0;
  private h2 = 0;
  private h3 = 0;
  private readonly block = new Uint8Array(64);
  private used = 0;
  private length = 0;

  constructor() {
    this.reset();
  }

  /** Starts over: empty, or from a saved state (see `save`). */
  reset(from: Md5State = INITIAL): this {
    const w = from.words;
    this.h0 = w[0];
    this.h1 = w[1];
    this.h2 = w[2];
    this.h3 = w[3];
    this.length = from.length;
    this.used = 0;
    return this;
  }

  /** The state after whole blocks (throws mid-block: there would be buffered octets to save too). */
  save(): Md5State {
    if (this.used !== 0) throw new Error("md5 state saved mid-block");
    return { words: [this.h0, this.h1, this.h2, this.h3], length: this.length };
  }

  update(data: Uint8Array, start = 0, end = data.length): this {
    this.length += end - start;
    let i = start;
    if (this.used > 0) {
      const take = Math.min(64 - this.used, end - i);
      for (let j = 0; j < take; j++) this.block[this.used + j] = data[i + j];
      this.used += take;
      i += take;
      if (this.used < 64) return this;
      this.compress(this.block, 0);
      this.used = 0;
    }
    for (; i + 64 <= end; i += 64) this.compress(data, i);
    const rest = end - i;
    for (let j = 0; j < rest; j++) this.block[j] = data[i + j];
    this.used = rest;
    return this;
  }

  /** `n` zero octets (n <= 64). */
  zeros(n: number): this {
    return this.update(ZEROS, 0, n);
  }

  /** Finishes the hash into `out` at `offset` (16 octets); reset it before feeding it again. */
  digestInto(out: Uint8Array, offset = 0): void {
    const bits = this.length * 8;
    const b = this.block;
    b[this.used++] = 0x80;
    if (this.used > 56) {
      b.fill(0, this.used);
      this.compress(b, 0);
      this.used = 0;
    }
    b.fill(0, this.used, 56);
    const high = Math.floor(bits / 2 ** 32);
    for (let i = 0; i < 4; i++) {
      b[56 + i] = (bits >>> (8 * i)) & 0xff;
      b[60 + i] = (high >>> (8 * i)) & 0xff;
    }
    this.compress(b, 0);
    putWord(out, offset, this.h0);
    putWord(out, offset + 4, this.h1);
    putWord(out, offset + 8, this.h2);
    putWord(out, offset + 12, this.h3);
  }

  digest(): Buffer {
    const out = Buffer.allocUnsafe(16);
    this.digestInto(out);
    return out;
  }

  private compress(p: Uint8Array, o: number): void {
    const x0 = word(p, o);
    const x1 = word(p, o + 4);
    const x2 = word(p, o + 8);
    const x3 = word(p, o + 12);
    const x4 = word(p, o + 16);
    const x5 = word(p, o + 20);
    const x6 = word(p, o + 24);
    const x7 = word(p, o + 28);
    const x8 = word(p, o + 32);
    const x9 = word(p, o + 36);
    const x10 = word(p, o + 40);
    const x11 = word(p, o + 44);
    const x12 = word(p, o + 48);
    const x13 = word(p, o + 52);
    const x14 = word(p, o + 56);
    const x15 = word(p, o + 60);
    let a = this.h0;
    let b = this.h1;
    let c = this.h2;
    let d = this.h3;
    let n: number;
    n = (a + ((b & c) | (~b & d)) + x0 + -0x28955b88) | 0;
    a = (((n << 7) | (n >>> 25)) + b) | 0;
    n = (d + ((a & b) | (~a & c)) + x1 + -0x173848aa) | 0;
    d = (((n << 12) | (n >>> 20)) + a) | 0;
    n = (c + ((d & a) | (~d & b)) + x2 + 0x242070db) | 0;
    c = (((n << 17) | (n >>> 15)) + d) | 0;
    n = (b + ((c & d) | (~c & a)) + x3 + -0x3e423112) | 0;
    b = (((n << 22) | (n >>> 10)) + c) | 0;
    n = (a + ((b & c) | (~b & d)) + x4 + -0x0a83f051) | 0;
    a = (((n << 7) | (n >>> 25)) + b) | 0;
    n = (d + ((a & b) | (~a & c)) + x5 + 0x4787c62a) | 0;
    d = (((n << 12) | (n >>> 20)) + a) | 0;
    n = (c + ((d & a) | (~d & b)) + x6 + -0x57cfb9ed) | 0;
    c = (((n << 17) | (n >>> 15)) + d) | 0;
    n = (b + ((c & d) | (~c & a)) + x7 + -0x02b96aff) | 0;
    b = (((n << 22) | (n >>> 10)) + c) | 0;
    n = (a + ((b & c) | (~b & d)) + x8 + 0x698098d8) | 0;
    a = (((n << 7) | (n >>> 25)) + b) | 0;
    n = (d + ((a & b) | (~a & c)) + x9 + -0x74bb0851) | 0;
    d = (((n << 12) | (n >>> 20)) + a) | 0;
    n = (c + ((d & a) | (~d & b)) + x10 + -0x0000a44f) | 0;
    c = (((n << 17) | (n >>> 15)) + d) | 0;
    n = (b + ((c & d) | (~c & a)) + x11 + -0x76a32842) | 0;
    b = (((n << 22) | (n >>> 10)) + c) | 0;
    n = (a + ((b & c) | (~b & d)) + x12 + 0x6b901122) | 0;
    a = (((n << 7) | (n >>> 25)) + b) | 0;
    n = (d + ((a & b) | (~a & c)) + x13 + -0x02678e6d) | 0;
    d = (((n << 12) | (n >>> 20)) + a) | 0;
    n = (c + ((d & a) | (~d & b)) + x14 + -0x5986bc72) | 0;
    c = (((n << 17) | (n >>> 15)) + d) | 0;
    n = (b + ((c & d) | (~c & a)) + x15 + 0x49b40821) | 0;
    b = (((n << 22) | (n >>> 10)) + c) | 0;
    n = (a + ((b & d) | (c & ~d)) + x1 + -0x09e1da9e) | 0;
    a = (((n << 5) | (n >>> 27)) + b) | 0;
    n = (d + ((a & c) | (b & ~c)) + x6 + -0x3fbf4cc0) | 0;
    d = (((n << 9) | (n >>> 23)) + a) | 0;
    n = (c + ((d & b) | (a & ~b)) + x11 + 0x265e5a51) | 0;
    c = (((n << 14) | (n >>> 18)) + d) | 0;
    n = (b + ((c & a) | (d & ~a)) + x0 + -0x16493856) | 0;
    b = (((n << 20) | (n >>> 12)) + c) | 0;
    n = (a + ((b & d) | (c & ~d)) + x5 + -0x29d0efa3) | 0;
    a = (((n << 5) | (n >>> 27)) + b) | 0;
    n = (d + ((a & c) | (b & ~c)) + x10 + 0x02441453) | 0;
    d = (((n << 9) | (n >>> 23)) + a) | 0;
    n = (c + ((d & b) | (a & ~b)) + x15 + -0x275e197f) | 0;
    c = (((n << 14) | (n >>> 18)) + d) | 0;
    n = (b + ((c & a) | (d & ~a)) + x4 + -0x182c0438) | 0;
    b = (((n << 20) | (n >>> 12)) + c) | 0;
    n = (a + ((b & d) | (c & ~d)) + x9 + 0x21e1cde6) | 0;
    a = (((n << 5) | (n >>> 27)) + b) | 0;
    n = (d + ((a & c) | (b & ~c)) + x14 + -0x3cc8f82a) | 0;
    d = (((n << 9) | (n >>> 23)) + a) | 0;
    n = (c + ((d & b) | (a & ~b)) + x3 + -0x0b2af279) | 0;
    c = (((n << 14) | (n >>> 18)) + d) | 0;
    n = (b + ((c & a) | (d & ~a)) + x8 + 0x455a14ed) | 0;
    b = (((n << 20) | (n >>> 12)) + c) | 0;
    n = (a + ((b & d) | (c & ~d)) + x13 + -0x561c16fb) | 0;
    a = (((n << 5) | (n >>> 27)) + b) | 0;
    n = (d + ((a & c) | (b & ~c)) + x2 + -0x03105c08) | 0;
    d = (((n << 9) | (n >>> 23)) + a) | 0;
    n = (c + ((d & b) | (a & ~b)) + x7 + 0x676f02d9) | 0;
    c = (((n << 14) | (n >>> 18)) + d) | 0;
    n = (b + ((c & a) | (d & ~a)) + x12 + -0x72d5b376) | 0;
    b = (((n << 20) | (n >>> 12)) + c) | 0;
    n = (a + (b ^ c ^ d) + x5 + -0x0005c6be) | 0;
    a = (((n << 4) | (n >>> 28)) + b) | 0;
    n = (d + (a ^ b ^ c) + x8 + -0x788e097f) | 0;
    d = (((n << 11) | (n >>> 21)) + a) | 0;
    n = (c + (d ^ a ^ b) + x11 + 0x6d9d6122) | 0;
    c = (((n << 16) | (n >>> 16)) + d) | 0;
    n = (b + (c ^ d ^ a) + x14 + -0x021ac7f4) | 0;
    b = (((n << 23) | (n >>> 9)) + c) | 0;
    n = (a + (b ^ c ^ d) + x1 + -0x5b4115bc) | 0;
    a = (((n << 4) | (n >>> 28)) + b) | 0;
    n = (d + (a ^ b ^ c) + x4 + 0x4bdecfa9) | 0;
    d = (((n << 11) | (n >>> 21)) + a) | 0;
    n = (c + (d ^ a ^ b) + x7 + -0x0944b4a0) | 0;
    c = (((n << 16) | (n >>> 16)) + d) | 0;
    n = (b + (c ^ d ^ a) + x10 + -0x41404390) | 0;
    b = (((n << 23) | (n >>> 9)) + c) | 0;
    n = (a + (b ^ c ^ d) + x13 + 0x289b7ec6) | 0;
    a = (((n << 4) | (n >>> 28)) + b) | 0;
    n = (d + (a ^ b ^ c) + x0 + -0x155ed806) | 0;
    d = (((n << 11) | (n >>> 21)) + a) | 0;
    n = (c + (d ^ a ^ b) + x3 + -0x2b10cf7b) | 0;
    c = (((n << 16) | (n >>> 16)) + d) | 0;
    n = (b + (c ^ d ^ a) + x6 + 0x04881d05) | 0;
    b = (((n << 23) | (n >>> 9)) + c) | 0;
    n = (a + (b ^ c ^ d) + x9 + -0x262b2fc7) | 0;
    a = (((n << 4) | (n >>> 28)) + b) | 0;
    n = (d + (a ^ b ^ c) + x12 + -0x1924661b) | 0;
    d = (((n << 11) | (n >>> 21)) + a) | 0;
    n = (c + (d ^ a ^ b) + x15 + 0x1fa27cf8) | 0;
    c = (((n << 16) | (n >>> 16)) + d) | 0;
    n = (b + (c ^ d ^ a) + x2 + -0x3b53a99b) | 0;
    b = (((n << 23) | (n >>> 9)) + c) | 0;
    n = (a + (c ^ (b | ~d)) + x0 + -0x0bd6ddbc) | 0;
    a = (((n << 6) | (n >>> 26)) + b) | 0;
    n = (d + (b ^ (a | ~c)) + x7 + 0x432aff97) | 0;
    d = (((n << 10) | (n >>> 22)) + a) | 0;
    n = (c + (a ^ (d | ~b)) + x14 + -0x546bdc59) | 0;
    c = (((n << 15) | (n >>> 17)) + d) | 0;
    n = (b + (d ^ (c | ~a)) + x5 + -0x036c5fc7) | 0;
    b = (((n << 21) | (n >>> 11)) + c) | 0;
    n = (a + (c ^ (b | ~d)) + x12 + 0x655b59c3) | 0;
    a = (((n << 6) | (n >>> 26)) + b) | 0;
    n = (d + (b ^ (a | ~c)) + x3 + -0x70f3336e) | 0;
    d = (((n << 10) | (n >>> 22)) + a) | 0;
    n = (c + (a ^ (d | ~b)) + x10 + -0x00100b83) | 0;
    c = (((n << 15) | (n >>> 17)) + d) | 0;
    n = (b + (d ^ (c | ~a)) + x1 + -0x7a7ba22f) | 0;
    b = (((n << 21) | (n >>> 11)) + c) | 0;
    n = (a + (c ^ (b | ~d)) + x8 + 0x6fa87e4f) | 0;
    a = (((n << 6) | (n >>> 26)) + b) | 0;
    n = (d + (b ^ (a | ~c)) + x15 + -0x01d31920) | 0;
    d = (((n << 10) | (n >>> 22)) + a) | 0;
    n = (c + (a ^ (d | ~b)) + x6 + -0x5cfebcec) | 0;
    c = (((n << 15) | (n >>> 17)) + d) | 0;
    n = (b + (d ^ (c | ~a)) + x13 + 0x4e0811a1) | 0;
    b = (((n << 21) | (n >>> 11)) + c) | 0;
    n = (a + (c ^ (b | ~d)) + x4 + -0x08ac817e) | 0;
    a = (((n << 6) | (n >>> 26)) + b) | 0;
    n = (d + (b ^ (a | ~c)) + x11 + -0x42c50dcb) | 0;
    d = (((n << 10) | (n >>> 22)) + a) | 0;
    n = (c + (a ^ (d | ~b)) + x2 + 0x2ad7d2bb) | 0;
    c = (((n << 15) | (n >>> 17)) + d) | 0;
    n = (b + (d ^ (c | ~a)) + x9 + -0x14792c6f) | 0;
    b = (((n << 21) | (n >>> 11)) + c) | 0;
    this.h0 = (this.h0 + a) | 0;
    this.h1 = (this.h1 + b) | 0;
    this.h2 = (this.h2 + c) | 0;
    this.h3 = (this.h3 + d) | 0;
  }
}

/** HMAC-MD5 with one key: the key's inner and outer pads are hashed once, here. */
export class HmacMd5 {
  private readonly inner: Md5State;
  private readonly outer: Md5State;
  private readonly outerHash = new Md5();
  private readonly innerDigest = new Uint8Array(16);

  constructor(key: Uint8Array) {
    const k = new Uint8Array(64);
    k.set(key.length > 64 ? new Md5().update(key).digest() : key);
    const pad = (byte: number) => new Md5().update(k.map((v) => v ^ byte)).save();
    this.inner = pad(0x36);
    this.outer = pad(0x5c);
  }

  /** `hash` reset to the inner pad: feed it the message, then `finish`. */
  begin(hash: Md5 = new Md5()): Md5 {
    return hash.reset(this.inner);
  }

  finish(inner: Md5, out: Uint8Array, offset = 0): void {
    inner.digestInto(this.innerDigest);
    this.outerHash.reset(this.outer).update(this.innerDigest).digestInto(out, offset);
  }
}

/** MD5 of the parts in a row (strings as UTF-8): the one MD5 of the product, for one-off uses too. */
export function md5(...parts: (Uint8Array | string)[]): Buffer {
  const h = new Md5();
  for (const p of parts) h.update(typeof p === "string" ? Buffer.from(p, "utf8") : p);
  return h.digest();
}
