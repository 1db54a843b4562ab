/**
 * RadSec's settings (RADIUS over TLS, RFC 6614), read by src/radius-config.ts with config.ts's
 * readers so that every variable fails with the same kind of message. Read once at start.
 */
import { X509Certificate, createPrivateKey } from "node:crypto";
import { isIP } from "node:net";
import type { ConfigReaders } from "./config-readers.js";

export interface RadsecConfig {
  /** RADSEC_ENABLED: listen for RadSec beside UDP RADIUS. */
  enabled: boolean;
  /** RADSEC_HOST (default RADIUS_HOST) and RADSEC_PORT (2083, RFC 6614). */
  host: string;
  port: number;
  /** RADSEC_CERT / RADSEC_KEY (PEM files): the server's certificate; unset: issued at start by the CA. */
  serverCert: string | undefined;
  serverKey: string | undefined;
  /** RADSEC_SERVER_NAMES: DNS names and addresses put in an issued server certificate. */
  serverNames: string[];
  /**
   * RADSEC_CA_CERT / RADSEC_CA_KEY (PEM files): an operator's CA that issues device certificates
   * instead of the one the service generates and keeps (sealed) in its database.
   */
  caCert: string | undefined;
  caKey: string | undefined;
  /**
   * RADSEC_CLIENT_CA_FILE (PEM, one or more): CAs of certificates the service did not issue but
   * trusts (Meraki's device CA). Such a client may send requests for any registered device, which
   * is then found by the request's attributes as over UDP; its revocation is its CA's business.
   */
  clientCas: string[];
  /** RADSEC_DEVICE_CERT_DAYS: how long an issued device certificate is valid. */
  deviceCertDays: number;
  /** RADSEC_IDLE_TIMEOUT: seconds without a packet either way before a connection is closed. */
  idleTimeoutSeconds: number;
  /** RADSEC_HANDSHAKE_TIMEOUT_MS: a TLS handshake not finished by then is cut (slow or silent peers). */
  handshakeTimeoutMs: number;
  /** RADSEC_MAX_CONNECTIONS: open connections at most; at the bound the longest idle one makes room. */
  maxConnections: number;
}

export function validPem(read: ConfigReaders, certName: string, keyName: string, cert: string | undefined, key: string | undefined): void {
  if ((cert === undefined) !== (key === undefined)) read.fail(`${certName} and ${keyName} must be set together`);
  if (cert === undefined || key === undefined) return;
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    read.fail(`${certName} must name a PEM certificate`);
  }
  try {
    if (!x509.checkPrivateKey(createPrivateKey(key))) read.fail(`${keyName} is not the private key of ${certName}`);
  } catch {
    read.fail(`${keyName} must name an unencrypted PEM private key`);
  }
}

export function radsecConfig(read: ConfigReaders, radiusHost: string, publicUrl: string): RadsecConfig {
  const serverCert = read.fileText("RADSEC_CERT");
  const serverKey = read.fileText("RADSEC_KEY");
  validPem(read, "RADSEC_CERT", "RADSEC_KEY", serverCert, serverKey);
  const caCert = read.fileText("RADSEC_CA_CERT");
  const caKey = read.fileText("RADSEC_CA_KEY");
  validPem(read, "RADSEC_CA_CERT", "RADSEC_CA_KEY", caCert, caKey);
  if (caCert !== undefined && !new X509Certificate(caCert).ca) read.fail("RADSEC_CA_CERT must be a CA certificate (basicConstraints CA:TRUE)");
  const clientCaText = read.fileText("RADSEC_CLIENT_CA_FILE");
  const clientCas = clientCaText?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (clientCaText !== undefined && clientCas.length === 0) read.fail("RADSEC_CLIENT_CA_FILE must name a file of PEM certificates");
  for (const pem of clientCas) {
    try {
      new X509Certificate(pem);
    } catch {
      read.fail("RADSEC_CLIENT_CA_FILE holds a certificate that cannot be read");
    }
  }
  const publicHost = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "");
  const names = read
    .str("RADSEC_SERVER_NAMES", [publicHost, "localhost", "127.0.0.1", "::1"].filter((n, i, all) => all.indexOf(n) === i).join(","))
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  for (const n of names) {
    if (isIP(n) === 0 && !/^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(n)) {
      read.fail(`RADSEC_SERVER_NAMES must be a comma-separated list of host names and IP addresses, got "${n}"`);
    }
  }
  return {
    enabled: read.bool("RADSEC_ENABLED", false),
    host: read.str("RADSEC_HOST", radiusHost),
    port: read.int("RADSEC_PORT", 2083, 0, 65535),
    serverCert,
    serverKey,
    serverNames: names,
    caCert,
    caKey,
    clientCas,
    deviceCertDays: read.int("RADSEC_DEVICE_CERT_DAYS", 730, 1, 3650),
    idleTimeoutSeconds: read.int("RADSEC_IDLE_TIMEOUT", 600, 1, 86400),
    handshakeTimeoutMs: read.int("RADSEC_HANDSHAKE_TIMEOUT_MS", 10_000, 100, 120_000),
    maxConnections: read.int("RADSEC_MAX_CONNECTIONS", 20_000, 1, 1_000_000),
  };
}
