/**
 * The codec's security-critical parts against known vectors: RFC 2865 section 7.1's packets, and
 * packets built by the real radclient (captured on a socket of our own, never answered).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { createSocket } from "node:dgram";
import { describe, it } from "node:test";
import { type PasswordProof, proofMatches } from "../../src/radius/password-check.js";
import {
  CODE,
  accountingAuthenticatorValid,
  checkMessageAuthenticator,
  decodePacket,
  decryptUserPassword,
  encodeReply,
  octetsAttr,
  rawUserPassword,
  signResponse,
  stringAttr,
  wellFormed,
} from "../../src/radius/radius-codec.js";
import { RADCLIENT } from "./radclient.js";

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

// RFC 2865 section 7.1: user nemo, password arctangent, secret xyzzy5461.
const RFC_SECRET = "xyzzy5461";
const RFC_REQUEST = hex(`01 00 00 38 0f 40 3f 94 73 97 80 57 bd 83 d5 cb 98 f4 22 7a 01 06 6e 65 6d 6f 02 12 0d be 70 8d
  93 d4 13 ce 31 96 e4 3f 78 2a 0a ee 04 06 c0 a8 01 10 05 06 00 00 00 03`);
const RFC_ACCEPT = hex(`02 00 00 26 86 fe 22 0e 76 24 ba 2a 10 05 f6 bf 9b 55 e0 b2 06 06 00 00 00 01 0f 06 00 00 00 00
  0e 06 c0 a8 01 03`);

/** The first datagram radclient sends for these attribute lines (no answer is ever given). */
async function captureRadclient(kind: "auth" | "acct", secret: string, lines: string[]): Promise<Buffer> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const port = socket.address().port;
  const got = new Promise<Buffer>((resolve) => socket.once("message", (m) => resolve(m)));
  const child = spawn(RADCLIENT, ["-r", "1", "-t", "0.3", `127.0.0.1:${port}`, kind, secret], { stdio: ["pipe", "ignore", "ignore"] });
  child.stdin.end(`${lines.join("\n")}\n`);
  const packet = await got;
  const closed = new Promise((resolve) => child.on("close", resolve));
  child.kill(); // it would wait for an answer that never comes
  await closed;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return packet;
}

describe("radius codec: RFC 2865 section 7.1 vectors", () => {
  it("decodes the example Access-Request and recovers the PAP password", () => {
    const packet = wellFormed(RFC_REQUEST)!;
    const d = decodePacket(packet);
    assert.equal(d.code, CODE.AccessRequest);
    assert.equal(stringAttr(d.attributes, "User-Name"), "nemo");
    assert.equal(decryptUserPassword(rawUserPassword(packet)!, RFC_SECRET, d.authenticator), "arctangent");
    assert.notEqual(decryptUserPassword(rawUserPassword(packet)!, "wrong-secret", d.authenticator), "arctangent");
  });

  it("signs a response to the RFC's Response Authenticator", () => {
    const reply = Buffer.from(RFC_ACCEPT);
    reply.fill(0, 4, 20);
    signResponse(reply, RFC_REQUEST.subarray(4, 20), RFC_SECRET, false);
    assert.deepEqual(reply, RFC_ACCEPT);
  });
});

describe("radius codec: structure checks", () => {
  it("cuts padding after Length and refuses packets whose attributes do not tile exactly", () => {
    const padded = Buffer.concat([RFC_REQUEST, Buffer.from([1, 2, 3])]);
    assert.equal(wellFormed(padded)!.length, RFC_REQUEST.length);
    assert.equal(wellFormed(RFC_REQUEST.subarray(0, 19)), undefined, "shorter than a header");
    assert.equal(wellFormed(RFC_REQUEST.subarray(0, 40)), undefined, "shorter than its Length");
    const zeroLength = Buffer.from(RFC_REQUEST);
    zeroLength[21] = 0;
    assert.equal(wellFormed(zeroLength), undefined, "attribute length 0");
    const overrun = Buffer.from(RFC_REQUEST);
    overrun[overrun.length - 5] = 7;
    assert.equal(wellFormed(overrun), undefined, "last attribute runs past Length");
    const tooLong = Buffer.from(RFC_REQUEST);
    tooLong.writeUInt16BE(5000, 2);
    assert.equal(wellFormed(tooLong), undefined, "Length above 4096");
  });
});

describe("radius codec: Message-Authenticator and CHAP against radclient's own packets", () => {
  const secret = "s3cret-for-vectors";

  it("verifies radclient's Message-Authenticator on an Access-Request, and nothing else passes", async () => {
    const packet = wellFormed(await captureRadclient("auth", secret, ['User-Name = "ann"', 'User-Password = "pw"', "Message-Authenticator = 0x00"]))!;
    assert.equal(checkMessageAuthenticator(packet, secret), "valid");
    assert.equal(checkMessageAuthenticator(packet, "other-secret"), "invalid");
    const tampered = Buffer.from(packet);
    tampered[22] ^= 0x01; // inside User-Name's value
    assert.equal(checkMessageAuthenticator(tampered, secret), "invalid");
    const plain = wellFormed(await captureRadclient("auth", secret, ['User-Name = "ann"', 'User-Password = "pw"']))!;
    assert.equal(checkMessageAuthenticator(plain, secret), "absent");
  });

  it("verifies radclient's accounting Request Authenticator and its Message-Authenticator", async () => {
    const packet = wellFormed(
      await captureRadclient("acct", secret, ["Acct-Status-Type = Start", 'Acct-Session-Id = "abc"', "Message-Authenticator = 0x00"]),
    )!;
    assert.equal(accountingAuthenticatorValid(packet, secret), true);
    assert.equal(accountingAuthenticatorValid(packet, "other-secret"), false);
    assert.equal(checkMessageAuthenticator(packet, secret), "valid");
  });

  it("checks radclient's CHAP responses, with the authenticator or CHAP-Challenge as the challenge", async () => {
    for (const extra of [[], ["CHAP-Challenge = 0x0102030405060708090a0b0c0d0e0f10"]]) {
      const packet = wellFormed(await captureRadclient("auth", secret, ['User-Name = "ann"', 'CHAP-Password = "letmein"', ...extra]))!;
      const d = decodePacket(packet);
      const proof: PasswordProof = {
        kind: "chap",
        chapPassword: octetsAttr(d.attributes, "CHAP-Password")!,
        challenge: octetsAttr(d.attributes, "CHAP-Challenge") ?? d.authenticator,
      };
      assert.equal(extra.length > 0, octetsAttr(d.attributes, "CHAP-Challenge") !== undefined);
      assert.equal(proofMatches(proof, "letmein"), true);
      assert.equal(proofMatches(proof, "letmeout"), false);
    }
  });
});

describe("radius codec: replies", () => {
  it("puts Message-Authenticator first in Access replies, signed per RFC 3579, and echoes Proxy-State", () => {
    const secret = "reply-secret";
    const reqBytes = Buffer.concat([
      Buffer.from([1, 42, 0, 0]),
      Buffer.alloc(16, 7),
      Buffer.from([1, 5, 0x61, 0x6e, 0x6e]), // User-Name "ann"
      Buffer.from([33, 5, 9, 8, 7]), // Proxy-State
    ]);
    reqBytes.writeUInt16BE(reqBytes.length, 2);
    const request = decodePacket(wellFormed(reqBytes)!);
    const reply = encodeReply(request, CODE.AccessAccept, [["Session-Timeout", 3600], ["Vendor-Specific", "WISPr", [["WISPr-Bandwidth-Max-Up", 8000]]]], secret);
    assert.equal(reply[0], CODE.AccessAccept);
    assert.equal(reply[1], 42);
    assert.equal(reply[20], 80, "first attribute is Message-Authenticator");
    assert.equal(reply[21], 18);
    // Recompute both signatures independently.
    const copy = Buffer.from(reply);
    request.authenticator.copy(copy, 4);
    copy.fill(0, 22, 38);
    assert.deepEqual(createHmac("md5", secret).update(copy).digest(), reply.subarray(22, 38));
    const forAuth = Buffer.from(reply);
    request.authenticator.copy(forAuth, 4);
    assert.deepEqual(createHash("md5").update(forAuth).update(secret).digest(), reply.subarray(4, 20));
    const decoded = decodePacket(reply);
    assert.equal(decoded.attributes["Session-Timeout"], 3600);
    assert.deepEqual(decoded.attributes["Vendor-Specific"], { "WISPr-Bandwidth-Max-Up": 8000 });
    assert.deepEqual(decoded.attributes["Proxy-State"], Buffer.from([9, 8, 7]));

    const acct = encodeReply(request, CODE.AccountingResponse, [], secret);
    assert.equal(acct.length, 20 + 5, "an Accounting-Response carries only the Proxy-State");
  });
});
