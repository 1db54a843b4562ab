/**
 * The certificates of EAP-TTLS and EAP-TLS: the server's (EAP_CERT/EAP_KEY, or issued at start by
 * the service CA, as RadSec's is) and the CA a device must trust to accept it. Client
 * certificates for EAP-TLS must chain to the service CA.
 */
import { X509Certificate, constants } from "node:crypto";
import { type SecureContext, createSecureContext } from "node:tls";
import type { Config } from "../../config.js";
import { issueCertificate } from "../../modules/device-certificates/certificate-authority.js";
import { serviceCa } from "../../modules/device-certificates/device-certificates.service.js";
import type { RadiusCtx } from "../radius.repository.js";

type EapCertConfig = Pick<Config, "secretBoxKey" | "radsec" | "eap">;

export interface EapTlsMaterial {
  /** The server's certificate chain (PEM). */
  cert: string;
  key: string;
  /** CAs a client certificate must chain to (EAP-TLS). */
  clientCas: string[];
  /** The CA that devices must trust for the server's certificate. */
  trustAnchor: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The last certificate of an operator's chain file: the CA devices are told to trust. */
function lastOfChain(chain: string): string {
  const all = chain.match(PEM_CERT) ?? [];
  return `${all[all.length - 1] ?? chain}\n`;
}

/**
 * The PEM of the CA devices must trust for our EAP server certificate (Passpoint profiles put it
 * in their EAP configuration): the service CA, or the last certificate of EAP_CERT's chain.
 */
export async function eapTrustAnchorPem(ctx: Pick<RadiusCtx, "db">, config: Readonly<EapCertConfig>): Promise<string> {
  if (config.eap.serverCert) return lastOfChain(config.eap.serverCert);
  return (await serviceCa(ctx.db, config)).certificate;
}

/**
 * The name in our EAP server certificate, which a device checks (Apple's TLSTrustedServerNames,
 * Windows' ServerNames): the operator's EAP_CERT's Common Name, else the name we issue it for.
 */
export function eapServerName(config: Readonly<Pick<Config, "radsec" | "eap">>): string {
  if (config.eap.serverCert) {
    const first = config.eap.serverCert.match(PEM_CERT)?.[0];
    const cn = first ? commonNameOf(new X509Certificate(first)) : undefined;
    if (cn) return cn;
  }
  return issuedServerName(config);
}

function issuedServerName(config: Readonly<Pick<Config, "radsec">>): string {
  return config.radsec.serverNames[0] ?? "localhost";
}

/** The server certificate and key (issued now by the service CA when EAP_CERT is unset). */
export async function eapTlsMaterial(ctx: Pick<RadiusCtx, "db">, config: Readonly<EapCertConfig>): Promise<EapTlsMaterial> {
  const ca = await serviceCa(ctx.db, config);
  if (config.eap.serverCert && config.eap.serverKey) {
    return { cert: config.eap.serverCert, key: config.eap.serverKey, clientCas: [ca.certificate], trustAnchor: lastOfChain(config.eap.serverCert) };
  }
  const now = Date.now();
  const name = issuedServerName(config);
  const issued = await issueCertificate(ca, {
    commonName: name,
    usage: "server",
    altNames: config.radsec.serverNames,
    notBefore: new Date(now - 5 * 60_000),
    notAfter: new Date(now + 365 * 86_400_000),
  });
  return { cert: `${issued.certificate}${ca.certificate}`, key: issued.privateKey, clientCas: [ca.certificate], trustAnchor: ca.certificate };
}

/** One TLS context per method: distinct session id contexts, so a TTLS session never resumes as EAP-TLS. */
export function eapSecureContext(material: EapTlsMaterial, method: "ttls" | "tls"): SecureContext {
  return createSecureContext({
    cert: material.cert,
    key: material.key,
    ca: material.clientCas,
    minVersion: "TLSv1.2",
    maxVersion: "TLSv1.3",
    sessionIdContext: `guestwifi-eap-${method}`,
    // No session tickets for EAP-TTLS: see eap-server.ts (EAP-TLS resumes by session id or ticket).
    secureOptions: method === "ttls" ? constants.SSL_OP_NO_TICKET : 0,
  });
}

/** The chain depth we follow from a client certificate to a trusted CA. */
const MAX_CHAIN = 5;

/**
 * Why a client certificate is refused, or undefined when it chains to one of `trusted` with
 * every certificate on the way within its validity. (A TLSSocket made outside tls.Server does not
 * set `authorized`, so the chain the peer presented is checked here.)
 */
export function clientCertificateRefusal(peer: X509Certificate, trusted: X509Certificate[], now = new Date()): string | undefined {
  let cert: X509Certificate | undefined = peer;
  for (let depth = 0; cert && depth < MAX_CHAIN; depth++) {
    if (new Date(cert.validTo) < now) return "certificate expired";
    if (new Date(cert.validFrom) > now) return "certificate not yet valid";
    if (depth === 0 && cert.ca) return "a CA certificate cannot be a client certificate";
    const current: X509Certificate = cert;
    const anchor = trusted.find((ca) => current.checkIssued(ca) && current.verify(ca.publicKey));
    if (anchor) return undefined;
    const issuer: X509Certificate | undefined = current.issuerCertificate;
    if (!issuer || issuer.fingerprint256 === current.fingerprint256 || !issuer.ca || !current.checkIssued(issuer) || !current.verify(issuer.publicKey)) {
      return "certificate does not chain to a trusted CA";
    }
    cert = issuer;
  }
  return "certificate chain too long";
}

/** The Common Name of a certificate's subject, when it has one. */
export function commonNameOf(cert: X509Certificate): string | undefined {
  for (const line of cert.subject.split("\n")) if (line.startsWith("CN=")) return line.slice(3);
  return undefined;
}
