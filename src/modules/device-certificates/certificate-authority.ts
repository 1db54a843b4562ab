/**
 * X.509 for RadSec: a CA, the certificates it issues (devices as TLS clients, the listener as a
 * TLS server) and PKCS#12 bundles. Keys are made and used by node:crypto (RSA 2048: what every
 * gateway's certificate import takes); node-forge writes the certificates (Node cannot) but signs
 * through Node: its own RSA, in JavaScript, takes seconds per signature on a busy machine.
 */
import { X509Certificate, constants, generateKeyPair, privateEncrypt, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { promisify } from "node:util";
import forge from "node-forge";

const makeKeyPair = promisify(generateKeyPair);

export interface CaMaterial {
  certificate: string;
  privateKey: string;
}

export interface IssuedCertificate {
  certificate: string;
  privateKey: string;
  /** Upper-case hex, as Node's TLS reports a peer's serialNumber. */
  serial: string;
  fingerprintSha256: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
}

export interface IssueOptions {
  commonName: string;
  organizationalUnit?: string;
  usage: "client" | "server";
  /** DNS names and IP addresses for subjectAltName (servers). */
  altNames?: string[];
  notBefore: Date;
  notAfter: Date;
}

async function rsaKeyPair(bits: number): Promise<{ publicKey: string; privateKey: string }> {
  return makeKeyPair("rsa", { modulusLength: bits, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
}

/** 16 random octets, positive and without a leading zero octet (so every peer prints it the same way). */
function newSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x3f) | 0x40;
  return bytes.toString("hex").toUpperCase();
}

/** DER prefix of a PKCS#1 v1.5 DigestInfo for SHA-256 (RFC 8017 section 9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

/** Signs the certificate (sha256WithRSAEncryption) with Node's RSA: forge hands over the digest of the TBSCertificate. */
function sign(cert: forge.pki.Certificate, keyPem: string): void {
  const signer = {
    sign(md: forge.md.MessageDigest): string {
      const digest = Buffer.from(md.digest().getBytes(), "binary");
      return privateEncrypt({ key: keyPem, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest])).toString("binary");
    },
  };
  cert.sign(signer as unknown as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
}

/** A self-signed CA, valid for `days` (it signs certificates only). */
export async function createCa(commonName: string, days: number, now = new Date()): Promise<CaMaterial> {
  const keys = await rsaKeyPair(3072);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKey);
  cert.serialNumber = newSerial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + days * 86_400_000);
  const attrs = [{ name: "commonName", value: commonName }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  sign(cert, keys.privateKey);
  return { certificate: forge.pki.certificateToPem(cert), privateKey: keys.privateKey };
}

/** A certificate signed by `ca`, with a fresh key pair. */
export async function issueCertificate(ca: CaMaterial, opts: IssueOptions): Promise<IssuedCertificate> {
  const keys = await rsaKeyPair(2048);
  const caCert = forge.pki.certificateFromPem(ca.certificate);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKey);
  const serial = newSerial();
  cert.serialNumber = serial;
  cert.validity.notBefore = opts.notBefore;
  cert.validity.notAfter = opts.notAfter;
  const subject: forge.pki.CertificateField[] = [{ name: "commonName", value: opts.commonName }];
  if (opts.organizationalUnit) subject.push({ shortName: "OU", value: opts.organizationalUnit });
  cert.setSubject(subject);
  cert.setIssuer(caCert.subject.attributes);
  const altNames = (opts.altNames ?? []).map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n }));
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", clientAuth: opts.usage === "client", serverAuth: opts.usage === "server" },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
    ...(altNames.length > 0 ? [{ name: "subjectAltName", altNames }] : []),
  ]);
  sign(cert, ca.privateKey);
  const pem = forge.pki.certificateToPem(cert);
  const x509 = new X509Certificate(pem);
  return {
    certificate: pem,
    privateKey: keys.privateKey,
    serial,
    fingerprintSha256: x509.fingerprint256.replaceAll(":", ""),
    subject: x509.subject.replaceAll("\n", ", "),
    notBefore: opts.notBefore,
    notAfter: opts.notAfter,
  };
}

/**
 * The key, its certificate and the CA in one PKCS#12 file (base64), protected by `password`.
 * Triple-DES and SHA-1 MAC: the one protection every gateway's import reads (older firmware
 * refuses AES-based PKCS#12); the password is random and 128 bits strong.
 */
export function pkcs12Bundle(cert: IssuedCertificate, caCertificate: string, password: string, friendlyName: string): string {
  const asn1 = forge.pkcs12.toPkcs12Asn1(
    forge.pki.privateKeyFromPem(cert.privateKey),
    [forge.pki.certificateFromPem(cert.certificate), forge.pki.certificateFromPem(caCertificate)],
    password,
    { algorithm: "3des", friendlyName },
  );
  return forge.util.encode64(forge.asn1.toDer(asn1).getBytes());
}
