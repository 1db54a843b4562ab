/**
 * Runs the real eapol_test (Debian package eapoltest, wpa_supplicant's EAP peer) against a RADIUS
 * server on loopback, with a network block written for EAP-TTLS/PAP or EAP-TLS.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const EAPOL_TEST = "/usr/bin/eapol_test";

export type EapolNetwork =
  | { eap: "TTLS"; identity: string; password: string; anonymousIdentity?: string; caCert: string; phase1?: string; fragmentSize?: number }
  | { eap: "TLS"; identity: string; clientCert: string; privateKey: string; caCert: string; phase1?: string; fragmentSize?: number };

export interface EapolRun {
  success: boolean;
  /** EAP-Success events over the first authentication and the reauthentications. */
  successes: number;
  /** Authentications in which the peer resumed the TLS session. */
  resumed: number;
  /** eapol_test's own comparison of the MPPE keys of the Access-Accept with the MSK it derived. */
  mppeOk: boolean;
  /** "TLSv1.2" or "TLSv1.3" as the peer reports the negotiated version. */
  tlsVersion: string | undefined;
  output: string;
}

function quoted(s: string): string {
  return JSON.stringify(s);
}

/** The wpa_supplicant network block (PEM material is written to files beside it). */
export function networkBlock(net: EapolNetwork, dir: string): string {
  const ca = join(dir, "ca.pem");
  writeFileSync(ca, net.caCert);
  const lines = ["network={", "  key_mgmt=WPA-EAP", `  eap=${net.eap}`, `  identity=${quoted(net.identity)}`, `  ca_cert=${quoted(ca)}`];
  if (net.phase1) lines.push(`  phase1=${quoted(net.phase1)}`);
  if (net.fragmentSize) lines.push(`  fragment_size=${net.fragmentSize}`);
  if (net.eap === "TTLS") {
    lines.push(`  password=${quoted(net.password)}`, `  phase2="auth=PAP"`);
    if (net.anonymousIdentity) lines.push(`  anonymous_identity=${quoted(net.anonymousIdentity)}`);
  } else {
    const cert = join(dir, "client.pem");
    const key = join(dir, "client.key");
    writeFileSync(cert, net.clientCert);
    writeFileSync(key, net.privateKey, { mode: 0o600 });
    lines.push(`  client_cert=${quoted(cert)}`, `  private_key=${quoted(key)}`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

export interface EapolTarget {
  port: number;
  secret: string;
  /** The access point's MAC, sent as Called-Station-Id (the server finds the device by it). */
  apMac: string;
  clientMac: string;
  timeoutSeconds?: number;
  /** Reauthentications after the first (eapol_test -r): they resume the TLS session when the server allows. */
  reauths?: number;
}

/** One authentication; resolves with eapol_test's verdict (it exits 0 only on EAP-Success with matching keys). */
export async function eapolTest(net: EapolNetwork, target: EapolTarget): Promise<EapolRun> {
  const dir = mkdtempSync(join(tmpdir(), "eapol-"));
  try {
    const conf = join(dir, "eapol.conf");
    writeFileSync(conf, networkBlock(net, dir));
    const args = [
      "-c",
      conf,
      "-a",
      "127.0.0.1",
      "-p",
      String(target.port),
      "-s",
      target.secret,
      "-M",
      target.clientMac,
      `-N30:s:${target.apMac.replaceAll(":", "-")}:GuestWiFi`,
      "-t",
      String(target.timeoutSeconds ?? 20),
      ...(target.reauths ? ["-r", String(target.reauths)] : []),
    ];
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(EAPOL_TEST, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException).code === "number" ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      });
    });
    const version = /SSL: Using TLS version (TLSv1\.[23])/.exec(output)?.[1] ?? /TLS: Protocol version: (TLSv1\.[23])/.exec(output)?.[1];
    return {
      success: code === 0 && /^SUCCESS$/m.test(output),
      successes: output.split("CTRL-EVENT-EAP-SUCCESS").length - 1,
      resumed: output.split("Handshake finished - resumed=1").length - 1,
      mppeOk: /MPPE keys OK: [1-9]\d* {2}mismatch: 0/.test(output),
      tlsVersion: version,
      output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
