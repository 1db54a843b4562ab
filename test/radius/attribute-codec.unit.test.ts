/**
 * Our attribute decoder and encoder (src/radius/attribute-codec.ts) against the npm `radius`
 * package they stand in for: the same names and values, or an error on the same packets, over
 * tens of thousands of seeded random packets (standard, tagged, enumerated, IP, vendor attributes,
 * with wrong sizes), and the same octets for random reply attribute lists.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import radius from "radius";
import { intBetween, seededRng } from "../../src/cli/demo-random.js";
import { decodeAttributes, encodeAttributes } from "../../src/radius/attribute-codec.js";
import type { ReplyAttribute } from "../../src/radius/radius-codec.js";
import { ensureOracleDictionaries as ensureDictionaries } from "./radius-oracle.js";

const SRC = join(import.meta.dirname, "../../src");
const WISPR = 14122;
const CHILLI = 14559;

/** Types worth hitting often: text, integer (plain and enumerated), tagged, IP, octets, encrypted. */
const COMMON = [1, 2, 4, 5, 6, 8, 11, 18, 24, 25, 27, 28, 30, 31, 32, 33, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 55, 60, 61, 64, 65, 66, 80, 81, 87];

function randomValue(rng: () => number): number[] {
  const size = rng() < 0.7 ? [0, 1, 3, 4, 4, 4, 6, 16][intBetween(rng, 0, 7)] : intBetween(rng, 0, 40);
  return Array.from({ length: size }, () => (rng() < 0.3 ? intBetween(rng, 0, 3) : intBetween(rng, 0, 255)));
}

function randomAttribute(rng: () => number): number[] {
  if (rng() < 0.15) {
    const vendor = [WISPR, CHILLI, WISPR, CHILLI, intBetween(rng, 0, 20_000)][intBetween(rng, 0, 4)];
    const inner: number[] = [];
    for (let n = intBetween(rng, 0, 3); n > 0; n--) {
      const v = randomValue(rng);
      inner.push(intBetween(rng, 0, 12), v.length + 2, ...v);
    }
    const id = rng() < 0.05 ? [intBetween(rng, 1, 255)] : [];
    const body = [...(id.length ? id : [0]), (vendor >>> 16) & 255, (vendor >>> 8) & 255, vendor & 255, ...inner].slice(0, rng() < 0.05 ? intBetween(rng, 0, 3) : undefined);
    return [26, body.length + 2, ...body];
  }
  const type = rng() < 0.8 ? COMMON[intBetween(rng, 0, COMMON.length - 1)] : intBetween(rng, 0, 255);
  const value = randomValue(rng).slice(0, 253);
  return [type, value.length + 2, ...value];
}

function randomPacket(rng: () => number): Buffer {
  const attrs: number[] = [];
  for (let n = intBetween(rng, 0, 8); n > 0; n--) attrs.push(...randomAttribute(rng));
  const code = rng() < 0.95 ? [1, 2, 3, 4, 5, 11][intBetween(rng, 0, 5)] : intBetween(rng, 0, 255);
  const packet = Buffer.alloc(20 + attrs.length);
  packet[0] = code;
  packet[1] = intBetween(rng, 0, 255);
  packet.writeUInt16BE(packet.length, 2);
  Buffer.from(attrs).copy(packet, 20);
  return packet;
}

type Outcome = { ok: true; attributes: unknown } | { ok: false };

function outcome(f: () => unknown): Outcome {
  try {
    const attributes = f();
    return attributes === undefined ? { ok: false } : { ok: true, attributes };
  } catch {
    return { ok: false };
  }
}

describe("attribute codec against the radius package", () => {
  it("decodes 30,000 random packets to the same attributes, and refuses the same ones", () => {
    ensureDictionaries();
    const rng = seededRng(20261123);
    let refused = 0;
    for (let i = 0; i < 30_000; i++) {
      const packet = randomPacket(rng);
      const ours = outcome(() => decodeAttributes(packet));
      const theirs = outcome(() => radius.decode_without_secret({ packet }).attributes);
      assert.deepEqual(ours, theirs, `packet ${packet.toString("hex")}`);
      if (!ours.ok) refused++;
    }
    // Both kinds were exercised.
    assert.ok(refused > 1_000 && refused < 29_000, `${refused} refused`);
  });

  it("encodes random reply attribute lists to the same octets", () => {
    ensureDictionaries();
    const rng = seededRng(7);
    const integers = ["Session-Timeout", "Idle-Timeout", "Acct-Interim-Interval", "Service-Type", "Termination-Action", "Framed-MTU"];
    const texts = ["Reply-Message", "Filter-Id", "Callback-Id"];
    const value = () => (rng() < 0.1 ? 0 : rng() < 0.5 ? intBetween(rng, 0, 20) : intBetween(rng, 0, 0xffff_ffff));
    for (let i = 0; i < 5_000; i++) {
      const attrs: ReplyAttribute[] = [];
      for (let n = intBetween(rng, 0, 6); n > 0; n--) {
        const pick = rng();
        if (pick < 0.4) attrs.push([integers[intBetween(rng, 0, integers.length - 1)], value()]);
        else if (pick < 0.6) attrs.push([texts[intBetween(rng, 0, texts.length - 1)], "x".repeat(intBetween(rng, 0, 30))]);
        else if (pick < 0.8) attrs.push(["Vendor-Specific", "WISPr", [["WISPr-Bandwidth-Max-Up", value()], ["WISPr-Bandwidth-Max-Down", value()]]]);
        else attrs.push(["Vendor-Specific", "ChilliSpot", [["ChilliSpot-Max-Total-Octets", value()], ["ChilliSpot-Max-Total-Gigawords", value()]]]);
      }
      const ours = Buffer.alloc(4096);
      const oursEnd = encodeAttributes(ours, 0, attrs);
      const theirs = Buffer.alloc(4096);
      const theirsEnd = (radius as unknown as { encode_attributes(into: Buffer, a: unknown[], v: number): number }).encode_attributes(theirs, attrs, -1);
      assert.deepEqual(ours.subarray(0, oursEnd), theirs.subarray(0, theirsEnd), JSON.stringify(attrs));
    }
  });

  it("encodes what the fast path leaves out (tagged, IP, values by name, raw octets, vendor lists) to the same octets", () => {
    ensureDictionaries();
    const cases: unknown[][] = [
      ["Tunnel-Type", 1, "VLAN"],
      ["Tunnel-Medium-Type", 1, "IEEE-802"],
      ["Tunnel-Private-Group-Id", 1, "42"],
      ["Framed-IP-Address", "10.1.2.3"],
      ["Service-Type", "Framed-User"],
      ["Acct-Status-Type", "Interim-Update"],
      ["Class", Buffer.from("0102ff", "hex")],
      [200, Buffer.from("raw")],
      ["Vendor-Specific", "WISPr", [["WISPr-Redirection-URL", "https://portal.example/"], ["WISPr-Bandwidth-Max-Up", 1000]]],
      ["Reply-Message", "é".repeat(100)],
    ];
    for (const attr of cases) {
      const ours = Buffer.alloc(4096);
      const oursEnd = encodeAttributes(ours, 0, [attr as ReplyAttribute]);
      const theirs = Buffer.alloc(4096);
      const theirsEnd = (radius as unknown as { encode_attributes(into: Buffer, a: unknown[], v: number): number }).encode_attributes(theirs, [attr], -1);
      assert.deepEqual(ours.subarray(0, oursEnd), theirs.subarray(0, theirsEnd), JSON.stringify(attr));
    }
    assert.throws(() => encodeAttributes(Buffer.alloc(4096), 0, [["No-Such-Attribute", 1]]));
    assert.throws(() => encodeAttributes(Buffer.alloc(4096), 0, [["Framed-IP-Address", "10.1.2"]]));
  });

  it("is the service's own: nothing under src/ imports the radius package", () => {
    const files = readdirSync(SRC, { recursive: true }).filter((f) => String(f).endsWith(".ts"));
    const importing = files.filter((f) => /from "radius"/.test(readFileSync(join(SRC, String(f)), "utf8")));
    assert.deepEqual(importing, []);
  });
});
