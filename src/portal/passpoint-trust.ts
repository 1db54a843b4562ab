/**
 * What a Passpoint profile tells the device to trust: the CA that issued the EAP server's
 * certificate (src/radius/eap/eap-certificates.ts: EAP_CERT's chain, else the service CA), and the
 * name in that certificate. The service CA also issues the guests' EAP-TLS certificates.
 */
import type { Config } from "../config.js";
import type { Ctx } from "../modules/context.js";
import { eapServerName, eapTrustAnchorPem } from "../radius/eap/eap-certificates.js";

export interface EapServerTrust {
  /** PEM of the CA the device trusts the EAP server through. */
  caCertificate: string;
  /** The name the EAP server's certificate carries (Apple's TLSTrustedServerNames, Windows' ServerNames). */
  serverName: string;
}

export async function eapServerTrust(ctx: Ctx, config: Readonly<Config>): Promise<EapServerTrust> {
  return { caCertificate: await eapTrustAnchorPem(ctx, config), serverName: eapServerName(config) };
}
