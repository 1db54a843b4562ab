/** Pure parts of the RADIUS server: station ids, attribute mapping, retransmission cache, status types. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { acctStatus } from "../../src/radius/accounting.service.js";
import { DuplicateCache } from "../../src/radius/duplicate-cache.js";
import { chapResponse, proofMatches } from "../../src/radius/password-check.js";
import { acceptAttributes, totalOctets } from "../../src/radius/reply-attributes.js";
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
  it("maps options: seconds, bytes/s to bits/s, remaining cap with Gigawords, interim interval", () => {
    const attrs = acceptAttributes({
      sessionTimeLimit: 3600,
      maxBandwidthUp: 125_000,
      maxBandwidthDown: 250_000,
      remainingOctets: 5_000_000_000,
      interimInterval: 300,
    });
    assert.deepEqual(attrs, [
      ["Session-Timeout", 3600],
      ["Acct-Interim-Interval", 300],
      ["Vendor-Specific", "WISPr", [["WISPr-Bandwidth-Max-Up", 1_000_000], ["WISPr-Bandwidth-Max-Down", 2_000_000]]],
      ["Vendor-Specific", "ChilliSpot", [["ChilliSpot-Max-Total-Octets", 705_032_704], ["ChilliSpot-Max-Total-Gigawords", 1]]],
    ]);
  });

  it("leaves out what is off and clamps to 32 bits", () => {
    assert.deepEqual(
      acceptAttributes({ sessionTimeLimit: 0, maxBandwidthUp: 0, maxBandwidthDown: 0, remainingOctets: undefined, interimInterval: 60 }),
      [["Acct-Interim-Interval", 60]],
    );
    const [, , wispr] = acceptAttributes({ sessionTimeLimit: 1, maxBandwidthUp: 10 ** 12, maxBandwidthDown: 0, remainingOctets: 1000, interimInterval: 60 });
    assert.deepEqual(wispr, ["Vendor-Specific", "WISPr", [["WISPr-Bandwidth-Max-Up", 0xffff_ffff]]]);
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
