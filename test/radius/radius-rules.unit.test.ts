/** Pure parts of the RADIUS server: station ids, attribute mapping, retransmission cache, status types. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { acctStatus } from "../../src/radius/accounting-record.js";
import { DuplicateCache } from "../../src/radius/duplicate-cache.js";
import { chapResponse, proofMatches } from "../../src/radius/password-check.js";
import { AcceptTemplate, routerOsRate, totalOctets } from "../../src/radius/reply-attributes.js";
import { accessPointMacs, leadingMac } from "../../src/radius/station-id.js";

describe("station ids", () => {
  it("reads the MAC at the start of every format gateways use", () => {
    assert.equal(leadingMac("AA-BB-CC-DD-EE-0F:Guest WiFi"), "AA:BB:CC:DD:EE:0F");
    assert.equal(leadingMac("aa:bb:cc:dd:ee:0f"), "AA:BB:CC:DD:EE:0F");
    assert.equal(leadingMac("aa:bb:cc:dd:ee:0f:Cafe"), "AA:BB:CC:DD:EE:0F");
    assert.equal(leadingMac("aabbccddee0f"), "AA:BB:CC:DD:EE:0F");
    assert.equal(leadingMac("aabb.ccdd.ee0f"), "AA:BB:CC:DD:EE:0F");
    assert.equal(leadingMac("AA-BB-CC-DD-EE-0F@macauth"), "AA:BB:CC:DD:EE:0F");
  });

  it("refuses what is not a MAC", () => {
    for (const s of ["", "cafe-ap-1", "AA-BB-CC-DD-EE", "AA-BB:CC-DD:EE-FF", "aabbccddeeff00", "AA-BB-CC-DD-EE-FFF", "gw-abc"]) {
      assert.equal(leadingMac(s), undefined, s);
    }
    assert.equal(leadingMac(undefined), undefined);
  });

  it("tries Called-Station-Id before NAS-Identifier, without repeats", () => {
    assert.deepEqual(accessPointMacs("AA-BB-CC-DD-EE-01:ssid", "aa:bb:cc:dd:ee:02"), ["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"]);
    assert.deepEqual(accessPointMacs(undefined, "AA-BB-CC-DD-EE-02"), ["AA:BB:CC:DD:EE:02"]);
    assert.deepEqual(accessPointMacs("AA-BB-CC-DD-EE-02", "AA:BB:CC:DD:EE:02"), ["AA:BB:CC:DD:EE:02"]);
    assert.deepEqual(accessPointMacs("not a mac", "lobby"), []);
  });
});

describe("password checks", () => {
  it("PAP compares exactly; CHAP recomputes MD5(ident + password + challenge)", () => {
    assert.equal(proofMatches({ kind: "pap", password: "Secret16chars!!!" }, "Secret16chars!!!"), true);
    assert.equal(proofMatches({ kind: "pap", password: "Secret16chars!!" }, "Secret16chars!!!"), false);
    const challenge = Buffer.from("00112233445566778899aabbccddeeff", "hex");
    const good = Buffer.concat([Buffer.from([7]), chapResponse(7, "pw", challenge)]);
    assert.equal(proofMatches({ kind: "chap", chapPassword: good, challenge }, "pw"), true);
    assert.equal(proofMatches({ kind: "chap", chapPassword: good, challenge: Buffer.alloc(16) }, "pw"), false);
    assert.equal(proofMatches({ kind: "chap", chapPassword: good.subarray(0, 16), challenge }, "pw"), false);
    assert.equal(proofMatches({ kind: "none" }, "pw"), false);
  });
});

describe("Access-Accept attributes", () => {
  /** The attributes a template writes, as [type, value] and [vendor, type, value] (values as hex). */
  const written = (template: AcceptTemplate, remaining: number | undefined): (number | string)[][] => {
    const buf = Buffer.alloc(4096);
    const end = template.reply(remaining).writeInto(buf, 0);
    const out: (number | string)[][] = [];
    for (let off = 0; off < end; off += buf[off + 1]) {
      if (buf[off] !== 26) {
        out.push([buf[off], buf.toString("hex", off + 2, off + buf[off + 1])]);
        continue;
      }
      assert.equal(buf[off + 7] + 6, buf[off + 1], "one sub-attribute per Vendor-Specific, lengths consistent");
      out.push([buf.readUInt32BE(off + 2), buf[off + 6], buf.toString("hex", off + 8, off + buf[off + 1])]);
    }
    return out;
  };
  const u32 = (n: number) => n.toString(16).padStart(8, "0");
  const options = { sessionTimeLimit: 3600, maxBandwidthUp: 125_000, maxBandwidthDown: 250_000, interimInterval: 300 };

  it("maps options: seconds, bytes/s to bits/s, remaining cap with Gigawords, interim interval (CoovaChilli)", () => {
    assert.deepEqual(written(new AcceptTemplate("chillispot", options), 5_000_000_000), [
      [27, u32(3600)],
      [85, u32(300)],
      [14122, 7, u32(1_000_000)],
      [14122, 8, u32(2_000_000)],
      [14559, 3, u32(705_032_704)],
      [14559, 23, u32(1)],
    ]);
  });

  it("speaks each family's dialect", () => {
    const mikrotik = written(new AcceptTemplate("mikrotik", { ...options, maxBandwidthUp: 256_000, maxBandwidthDown: 1_250_000 }), 2 ** 32 * 3 + 7);
    assert.deepEqual(mikrotik, [
      [27, u32(3600)],
      [85, u32(300)],
      [14988, 8, Buffer.from("2048k/10M").toString("hex")],
      [14988, 17, u32(7)],
      [14988, 18, u32(3)],
    ]);
    assert.deepEqual(written(new AcceptTemplate("cambium", options), 1000).slice(2), [
      [14122, 7, u32(1_000_000)],
      [14122, 8, u32(2_000_000)],
      [17713, 155, u32(1000)],
    ]);
    assert.deepEqual(written(new AcceptTemplate("wispr", options), 10 ** 10).slice(2), [
      [14122, 7, u32(1_000_000)],
      [14122, 8, u32(2_000_000)],
    ], "no quota attribute in plain WISPr");
  });

  it("writes RouterOS rates in k and M only when exact, 0 for no limit", () => {
    assert.equal(routerOsRate(0), "0");
    assert.equal(routerOsRate(2_048_000), "2048k");
    assert.equal(routerOsRate(10_000_000), "10M");
    assert.equal(routerOsRate(1_000_008), "1000008");
    assert.deepEqual(written(new AcceptTemplate("mikrotik", { ...options, maxBandwidthUp: 0, maxBandwidthDown: 1_000 }), undefined).slice(2), [
      [14988, 8, Buffer.from("0/8k").toString("hex")],
    ]);
  });

  it("leaves out what is off and clamps to 32 bits", () => {
    for (const dialect of ["chillispot", "mikrotik", "cambium", "wispr"] as const) {
      assert.deepEqual(written(new AcceptTemplate(dialect, { sessionTimeLimit: 0, maxBandwidthUp: 0, maxBandwidthDown: 0, interimInterval: 60 }), undefined), [[85, u32(60)]], dialect);
    }
    const [, , up] = written(new AcceptTemplate("chillispot", { sessionTimeLimit: 1, maxBandwidthUp: 10 ** 12, maxBandwidthDown: 0, interimInterval: 60 }), 1000);
    assert.deepEqual(up, [14122, 7, u32(0xffff_ffff)]);
    assert.deepEqual(written(new AcceptTemplate("chillispot", options), 0).slice(4), [[14559, 3, u32(0)]]);
  });

  it("adds Gigawords to accounting octets", () => {
    assert.equal(totalOctets(5, 2), 2 * 2 ** 32 + 5);
    assert.equal(totalOctets(undefined, undefined), 0);
  });
});

describe("retransmission cache", () => {
  const pkt = (id: number, auth: number) => Buffer.concat([Buffer.from([1, id, 0, 20]), Buffer.alloc(16, auth)]);

  it("processes a request once, drops copies while pending, resends the answer within the window", () => {
    const c = new DuplicateCache(1000, 10);
    const k = DuplicateCache.key("127.0.0.1", 5000, pkt(1, 1));
    assert.equal(c.begin(k, 0), "new");
    assert.equal(c.begin(k, 10), "pending");
    const reply = Buffer.from("reply");
    c.finish(k, reply, 20);
    assert.equal(c.begin(k, 500), reply);
    assert.equal(c.begin(k, 1021), "new", "after the window it is a new request");
  });

  it("tells requests apart by address, port, identifier and authenticator", () => {
    const keys = new Set([
      DuplicateCache.key("127.0.0.1", 5000, pkt(1, 1)),
      DuplicateCache.key("127.0.0.2", 5000, pkt(1, 1)),
      DuplicateCache.key("127.0.0.1", 5001, pkt(1, 1)),
      DuplicateCache.key("127.0.0.1", 5000, pkt(2, 1)),
      DuplicateCache.key("127.0.0.1", 5000, pkt(1, 2)),
    ]);
    assert.equal(keys.size, 5);
  });

  it("forgets dropped requests and stays within its size", () => {
    const c = new DuplicateCache(1000, 3);
    const k = DuplicateCache.key("h", 1, pkt(1, 1));
    c.begin(k, 0);
    c.finish(k, undefined, 1);
    assert.equal(c.begin(k, 2), "new");
    for (let i = 0; i < 10; i++) c.begin(DuplicateCache.key("h", 1, pkt(i, 9)), 3);
    assert.equal(c.size, 3);
    c.sweep(5000);
    assert.equal(c.size, 0);
  });
});

describe("Acct-Status-Type", () => {
  it("takes dictionary names and numbers", () => {
    assert.equal(acctStatus("Start"), "Start");
    assert.equal(acctStatus(3), "Interim-Update");
    assert.equal(acctStatus("Accounting-On"), "Accounting-On");
    assert.equal(acctStatus(8), "Accounting-Off");
    assert.equal(acctStatus(15), "Other");
    assert.equal(acctStatus(undefined), "Other");
  });
});
