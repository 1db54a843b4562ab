/**
 * Passpoint's settings (the certificate the Apple profiles are signed with), read by config.ts with
 * its readers so that every variable fails with the same kind of message.
 */
import { X509Certificate, createPrivateKey } from "node:crypto";
import type { ConfigReaders } from "./config-readers.js";

export interface PasspointConfig {
  /**
   * PASSPOINT_SIGNING_CERT / _KEY (PEM files) and PASSPOINT_SIGNING_CHAIN (its intermediates, optional):
   * the Apple profiles are signed with them (docs/passpoint.md); unset, they go out unsigned.
   */
  passpointSigning: { certFile: string; keyFile: string; chainFile: string | undefined } | undefined;
}

/** The Apple profiles' signing certificate and key, checked to be a certificate and its key. */
function passpointSigning(read: ConfigReaders): PasspointConfig["passpointSigning"] {
  const cert = read.fileText("PASSPOINT_SIGNING_CERT");
  const key = read.fileText("PASSPOINT_SIGNING_KEY");
  const chain = read.fileText("PASSPOINT_SIGNING_CHAIN");
  if (cert === undefined && key === undefined) {
    if (chain !== undefined) read.fail("PASSPOINT_SIGNING_CHAIN needs PASSPOINT_SIGNING_CERT and PASSPOINT_SIGNING_KEY");
    return undefined;
  }
  if (cert === undefined || key === undefined) read.fail("PASSPOINT_SIGNING_CERT and PASSPOINT_SIGNING_KEY are set together");
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    read.fail("PASSPOINT_SIGNING_CERT must name a PEM certificate");
  }
  let matches = false;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch {
    read.fail("PASSPOINT_SIGNING_KEY must name an unencrypted PEM private key");
  }
  if (!matches) read.fail("PASSPOINT_SIGNING_KEY is not the private key of PASSPOINT_SIGNING_CERT");
  return { certFile: read.optional("PASSPOINT_SIGNING_CERT")!, keyFile: read.optional("PASSPOINT_SIGNING_KEY")!, chainFile: read.optional("PASSPOINT_SIGNING_CHAIN") };
}

export function passpointConfig(read: ConfigReaders): PasspointConfig {
  return { passpointSigning: passpointSigning(read) };
}
