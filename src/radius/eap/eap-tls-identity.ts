/**
 * Which EAP-TLS client certificates stand for which credential. Only certificates whose chain
 * the TLS handshake verified against the service CA (eap-certificates.ts) reach this point.
 *
 * Today: a portal credential whose username is the certificate's Common Name is proven by that
 * certificate (the test suite's way to hand a device a certificate). This is the hook where
 * Passpoint's per-guest client certificates are recognised (by serial and fingerprint).
 */
import type { PasswordProof } from "../password-check.js";

export type EapTlsProof = Extract<PasswordProof, { kind: "eap-tls" }>;

/** The certificate facts an EAP-TLS proof carries. */
export type EapTlsCertificate = EapTlsProof["certificate"];

/** True when the certificate speaks for the credential named `username`. */
export function findEapTlsIdentity(proof: EapTlsProof, username: string): boolean {
  return proof.commonName === username;
}
