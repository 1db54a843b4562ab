/**
 * Our MD5 and HMAC-MD5 (src/md5.ts) against node:crypto: the RFC 1321 test suite, every
 * length from 0 to 300 octets fed in random pieces (across block boundaries), zero runs, keys
 * shorter and longer than a block, and a reused hasher.
 */
import assert from "node:assert/strict";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { HmacMd5, Md5, md5 } from "../src/md5.js";

const nodeMd5 = (data: Uint8Array) => createHash("md5").update(data).digest();

describe("md5", () => {
  it("gives RFC 1321's test suite values", () => {
    const suite: [string, string][] = [
      ["", "d41d8cd98f00b204e9800998ecf8427e"],
      ["a", "0cc175b9c0f1b6a831c399e269772661"],
      ["abc", "900150983cd24fb0d6963f7d28e17f72"],
      ["message digest", "f96b697d7cb7938d525a2f31aaf161d0"],
      ["abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"],
      ["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"],
      ["12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"],
    ];
    for (const [text, want] of suite) {
      assert.equal(new Md5().update(Buffer.from(text)).digest().toString("hex"), want, text);
      assert.equal(md5(text.slice(0, 5), Buffer.from(text.slice(5))).toString("hex"), want, `md5() in parts: ${text}`);
    }
    assert.equal(md5("caf\u00e9").toString("hex"), nodeMd5(Buffer.from("caf\u00e9", "utf8")).toString("hex"), "strings as UTF-8");
  });

  it("matches node:crypto for every length up to 300, fed in random pieces, with one hasher reused", () => {
    const hash = new Md5();
    for (let len = 0; len <= 300; len++) {
      const data = randomBytes(len);
      hash.reset();
      let at = 0;
      while (at < len) {
        const next = Math.min(len, at + 1 + Math.floor(Math.random() * 70));
        hash.update(data, at, next);
        at = next;
      }
      assert.deepEqual(hash.digest(), nodeMd5(data), `length ${len}`);
    }
  });

  it("hashes runs of zeros as zero octets, and writes the digest where asked", () => {
    const data = randomBytes(100);
    const withHole = Buffer.from(data);
    withHole.fill(0, 30, 46);
    const out = Buffer.alloc(40, 0xff);
    new Md5().update(data, 0, 30).zeros(16).update(data, 46).digestInto(out, 20);
    assert.deepEqual(out.subarray(20, 36), nodeMd5(withHole));
    assert.deepEqual(out.subarray(0, 20), Buffer.alloc(20, 0xff));
    assert.deepEqual(out.subarray(36), Buffer.alloc(4, 0xff));
  });

  it("refuses to save a state in the middle of a block", () => {
    assert.throws(() => new Md5().update(Buffer.alloc(10)).save(), /mid-block/);
  });
});

describe("HMAC-MD5", () => {
  it("gives RFC 2202's test case 1 and 2 values", () => {
    const mac = (key: Buffer, data: Buffer) => {
      const h = new HmacMd5(key);
      const out = Buffer.alloc(16);
      h.finish(h.begin().update(data), out);
      return out.toString("hex");
    };
    assert.equal(mac(Buffer.alloc(16, 0x0b), Buffer.from("Hi There")), "9294727a3638bb1c13f48ef8158bfc9d");
    assert.equal(mac(Buffer.from("Jefe"), Buffer.from("what do ya want for nothing?")), "750c783e6ab0b503eaa86e310a5db738");
  });

  it("matches node:crypto for keys of 0 to 100 octets and messages of every length up to 200", () => {
    const scratch = new Md5();
    for (let len = 0; len <= 200; len++) {
      const key = randomBytes(len % 101);
      const data = randomBytes(len);
      const h = new HmacMd5(key);
      const out = Buffer.alloc(16);
      h.finish(h.begin(scratch).update(data), out);
      assert.deepEqual(out, createHmac("md5", key).update(data).digest(), `key ${key.length}, data ${len}`);
      // Same key, again: the pads are reused, not consumed.
      h.finish(h.begin(scratch).update(data), out);
      assert.deepEqual(out, createHmac("md5", key).update(data).digest());
    }
  });
});
