/** PAP and CHAP checks of an Access-Request against a known cleartext password. */
import { timingSafeEqual } from "node:crypto";
import { md5 } from "../md5.js";

/**
 * How the request proved the password: PAP (User-Password, already decrypted; also the PAP inside
 * EAP-TTLS), CHAP, or an EAP-TLS client certificate whose chain the handshake verified.
 */
export type PasswordProof =
  | { kind: "pap"; password: string }
  | { kind: "chap"; chapPassword: Buffer; challenge: Buffer }
  | { kind: "eap-tls"; commonName: string | undefined; certificate: { subject: string; serialNumber: string; fingerprint256: string; validTo: string } }
  | { kind: "none" };

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * RFC 2865 sections 2.2 and 5.3: CHAP-Password is the CHAP ident (1 octet) and
 * MD5(ident + password + challenge) (16 octets); the challenge is CHAP-Challenge when present,
 * else the Request Authenticator (the caller passes whichever applies).
 */
export function chapResponse(ident: number, password: string, challenge: Buffer): Buffer {
  return md5(Buffer.from([ident]), password, challenge);
}

export function proofMatches(proof: PasswordProof, password: string): boolean {
  if (proof.kind === "pap") return sameBytes(Buffer.from(proof.password, "utf8"), Buffer.from(password, "utf8"));
  if (proof.kind === "chap") {
    if (proof.chapPassword.length !== 17) return false;
    const expected = chapResponse(proof.chapPassword[0], password, proof.challenge);
    return sameBytes(expected, proof.chapPassword.subarray(1));
  }
  return false;
}
