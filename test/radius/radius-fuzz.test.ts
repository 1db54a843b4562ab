/**
 * Malformed, truncated and hostile packets at both ports: nothing is answered, nothing fails
 * inside, and the server then still answers good requests. Seeded, so a failure reproduces.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pino from "pino";
import { loadConfig } from "../../src/config.js";
import { createMetrics } from "../../src/metrics.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { seededRng } from "../../src/cli/demo-random.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { openPeer, radclient, rawExchange } from "./radclient.js";
import { dashed, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "./radius-fixtures.js";
import { countsOf, moved, radiusCounted } from "./radius-counts.js";
import { accessRequestBytes, accountingRequestBytes } from "./raw-packets.js";

function hostilePackets(seed: number, good: Buffer[]): Buffer[] {
  const rnd = seededRng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const out: Buffer[] = [];
  // Pure noise, including empty and oversized datagrams.
  for (let i = 0; i < 300; i++) out.push(bytes(int(i % 10 === 0 ? 4200 : 120)));
  for (const g of good) {
    // Every truncation of a real packet.
    for (let n = 0; n < g.length; n++) out.push(g.subarray(0, n));
    // Lies in the Length field.
    for (const len of [0, 1, 19, 20, g.length - 1, g.length + 1, 4097, 65535]) {
      const p = Buffer.from(g);
      p.writeUInt16BE(len, 2);
      out.push(p);
    }
    // Broken attribute lengths at every attribute boundary, and random byte flips.
    for (let off = 20; off < g.length; off += Math.max(2, g[off + 1])) {
      for (const len of [0, 1, 255, g.length - off + 1]) {
        const p = Buffer.from(g);
        p[off + 1] = len;
        out.push(p);
      }
    }
    for (let i = 0; i < 200; i++) {
      const p = Buffer.from(g);
      for (let k = 0; k <= int(4); k++) p[int(p.length)] = int(256);
      out.push(p);
    }
    // Every code on the wrong port, with a random tail.
    for (let code = 0; code < 256; code += 17) {
      const p = Buffer.concat([g, bytes(int(8))]);
      p[0] = code;
      out.push(p);
    }
  }
  return out;
}

for (const dialect of DIALECTS) {
  describe(`radius under malformed traffic (${dialect})`, () => {
    let t: TestApp;
    const metrics = createMetrics();
    let radius: RadiusListener;
    const logs: { level: number; msg: string; reason?: string }[] = [];
    before(async () => {
      t = await createTestApp(dialect);
      const log = pino({ level: "debug" }, { write: (line: string) => logs.push(JSON.parse(line)) });
      const config = loadConfig({ RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0" });
      radius = await startRadius({ db: t.db, config, log, metrics });
    });
    after(async () => {
      await radius.stop();
      await t.close();
    });

    it("drops every malformed packet on both ports and keeps answering good ones", async () => {
      const locationId = await makeLocation(t, { daily_bandwidth_cap: 1_000_000 });
      const ap = await makeDevice(t, locationId);
      const client = randomMac();
      await makeGuest(t, locationId, client);
      const mac = dashed(client);
      const access = accessRequestBytes(ap.secret, 1, [
        ["User-Name", mac],
        ["User-Password", mac],
        ["Called-Station-Id", dashed(ap.mac)],
        ["Calling-Station-Id", mac],
      ]);
      const accounting = accountingRequestBytes(ap.secret, 2, [
        ["Acct-Status-Type", "Interim-Update"],
        ["Acct-Session-Id", "fuzz-session"],
        ["Called-Station-Id", dashed(ap.mac)],
        ["Calling-Station-Id", mac],
        ["Acct-Input-Octets", 100],
      ]);
      // Well-formed, but with values the decoder must refuse: a 2-octet integer, a 3-octet vendor id.
      const withLength = (b: Buffer) => {
        b.writeUInt16BE(b.length, 2);
        return b;
      };
      const badValues = [
        withLength(Buffer.concat([Buffer.from([4, 9, 0, 0]), Buffer.alloc(16), Buffer.from([40, 4, 0, 1])])),
        withLength(Buffer.concat([Buffer.from([1, 10, 0, 0]), Buffer.alloc(16), Buffer.from([26, 5, 0, 0, 1])])),
      ];
      // Every byte of a valid request is under its signature (Message-Authenticator, or the
      // accounting Request Authenticator): of all the mutations, only a copy byte-identical to a
      // valid request (a random flip that wrote the same value) may be answered, and none is sent.
      const packets = hostilePackets(20261123, [access, accounting]).filter((p) => !p.equals(access) && !p.equals(accounting));
      // Proven dropped by the server's own count, not by a silence: every datagram it reads is
      // counted once (a drop, or an answer's outcome), so once a batch is all counted, each was
      // either dropped or answered. Batches of 100 fit the socket's receive buffer.
      const counts = countsOf(metrics);
      const peer = await openPeer();
      try {
        for (const [port, type] of [[radius.authPort, "access"], [radius.acctPort, "accounting"]] as const) {
          for (let i = 0; i < packets.length; i += 100) {
            const batch = [...packets.slice(i, i + 100), ...badValues];
            const was = await counts(type);
            // Answers arriving later still land in this array (the peer's collector for this exchange).
            const answers = await peer.exchange(port, batch, 0, 0);
            const now = await radiusCounted(counts, type, was, batch.length);
            const what = `packets ${i}..${i + batch.length} on the ${type} port`;
            assert.deepEqual(moved(was, now), { drop: batch.length, error: 0, other: 0 }, `${what}: every one counted as dropped`);
            assert.deepEqual(answers.map((a) => a[0]), [], `answers to ${what}`);
          }
        }
      } finally {
        await peer.close();
      }
      // The valid requests themselves, byte for byte, are answered: Accept and Accounting-Response.
      assert.deepEqual((await rawExchange(radius.authPort, [access], 1, 3000)).map((a) => a[0]), [2]);
      assert.deepEqual((await rawExchange(radius.acctPort, [accounting], 1, 3000)).map((a) => a[0]), [5]);
      const reasons = new Set(logs.filter((l) => l.msg === "radius packet dropped").map((l) => l.reason));
      for (const r of ["malformed packet", "wrong code for this port", "undecodable attributes", "unknown access point", "bad Message-Authenticator", "bad accounting authenticator"]) {
        assert.ok(reasons.has(r), `the fuzz reached "${r}" (got ${[...reasons].join(", ")})`);
      }
      assert.deepEqual(logs.filter((l) => l.level >= 50), [], "no request failed inside the server");

      const good = await radclient(radius.authPort, "auth", ap.secret, papRequest(ap.mac, client, mac, mac));
      assert.equal(good.code, "Access-Accept", good.output);
      const acct = await radclient(radius.acctPort, "acct", ap.secret, ["Acct-Status-Type = Start", 'Acct-Session-Id = "after-fuzz"', `Called-Station-Id = "${ap.mac}"`]);
      assert.equal(acct.code, "Accounting-Response", acct.output);
    });
  });
}
