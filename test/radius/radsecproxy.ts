/**
 * radsecproxy (Debian's, a RadSec implementation nobody here wrote) as the gateway side: it takes
 * radclient's UDP requests and relays them over RadSec, with the device certificate it is given,
 * to our listener, and answers radclient with what came back.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeUdpPort } from "../helpers/ports.js";

export const RADSECPROXY = "/usr/sbin/radsecproxy";
/** The secret radclient shares with radsecproxy (UDP side); the RadSec side uses "radsec". */
export const PROXY_UDP_SECRET = "proxy-udp-secret";

export interface RadsecProxy {
  udpPort: number;
  log(): string;
  stop(): Promise<void>;
}

export interface ProxyTls {
  caCertificate: string;
  certificate: string;
  privateKey: string;
}

export async function startRadsecproxy(serverPort: number, tls: ProxyTls, extra: { statusServer?: boolean; tlsVersion?: string; logLevel?: number } = {}): Promise<RadsecProxy> {
  const dir = mkdtempSync(join(tmpdir(), "radsecproxy-"));
  const udpPort = await freeUdpPort();
  writeFileSync(join(dir, "ca.pem"), tls.caCertificate);
  writeFileSync(join(dir, "client.pem"), tls.certificate);
  writeFileSync(join(dir, "client.key"), tls.privateKey, { mode: 0o600 });
  const logFile = join(dir, "radsecproxy.log");
  writeFileSync(logFile, "");
  writeFileSync(
    join(dir, "radsecproxy.conf"),
    `ListenUDP 127.0.0.1:${udpPort}
LogLevel ${extra.logLevel ?? 4}
LogDestination file://${logFile}
tls gateway {
    CACertificateFile ${join(dir, "ca.pem")}
    CertificateFile ${join(dir, "client.pem")}
    CertificateKeyFile ${join(dir, "client.key")}
${extra.tlsVersion ? `    TlsVersion ${extra.tlsVersion}\n` : ""}}
client radclient {
    host 127.0.0.1
    type udp
    secret ${PROXY_UDP_SECRET}
}
server guestwifi {
    host 127.0.0.1
    port ${serverPort}
    type tls
    tls gateway
    secret radsec
    CertificateNameCheck on
    StatusServer ${extra.statusServer ? "on" : "off"}
}
realm * {
    server guestwifi
    accountingServer guestwifi
}
`,
  );
  const child: ChildProcess = spawn(RADSECPROXY, ["-f", "-c", join(dir, "radsecproxy.conf"), "-d", String(extra.logLevel ?? 4)], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  // Ready once its UDP socket is bound: it logs its listeners before serving.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null && !/radsecproxy .* starting|listening on/i.test(output + readFileSync(logFile, "utf8"))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (child.exitCode !== null) throw new Error(`radsecproxy exited: ${output}${readFileSync(logFile, "utf8")}`);
  return {
    udpPort,
    log: () => output + readFileSync(logFile, "utf8"),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
