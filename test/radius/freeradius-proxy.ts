/**
 * Debian's FreeRADIUS 3.2 as a second RadSec client nobody here wrote: it takes radclient's UDP
 * requests and proxies them to a home server over TLS (proxy.conf's `home_server` with
 * `proto = tcp` and a `tls { }` section, as its own sites-available/tls shows), with the device
 * certificate it is given, to our listener, and answers radclient with what came back.
 * Its own configuration directory in a temporary folder; `-X` so that its log says what it did.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeUdpPort } from "../helpers/ports.js";
import type { ProxyTls } from "./radsecproxy.js";

export const FREERADIUS = "/usr/sbin/freeradius";
/** The secret radclient shares with FreeRADIUS (UDP side); the RadSec side uses "radsec" (RFC 6614 section 2.3). */
export const FREERADIUS_UDP_SECRET = "freeradius-udp-secret";

export interface FreeradiusProxy {
  authPort: number;
  acctPort: number;
  log(): string;
  stop(): Promise<void>;
}

function configuration(dir: string, authPort: number, acctPort: number, serverPort: number): string {
  return `prefix = /usr
raddbdir = ${dir}
confdir = ${dir}
logdir = ${dir}/log
run_dir = ${dir}/run
libdir = /usr/lib/freeradius
pidfile = ${dir}/run/radiusd.pid
name = freeradius
proxy_requests = yes
log {
	destination = stdout
}
security {
	allow_core_dumps = no
	status_server = no
}
thread pool {
	start_servers = 2
	max_servers = 4
	min_spare_servers = 1
	max_spare_servers = 2
}
client radclient {
	ipaddr = 127.0.0.1
	secret = ${FREERADIUS_UDP_SECRET}
}
proxy server {
	default_fallback = no
}
home_server guestwifi {
	ipaddr = 127.0.0.1
	port = ${serverPort}
	type = auth+acct
	proto = tcp
	secret = radsec
	status_check = none
	response_window = 10
	tls {
		certificate_file = ${dir}/client.pem
		private_key_file = ${dir}/client.key
		ca_file = ${dir}/ca.pem
		tls_min_version = "1.2"
		cipher_list = "DEFAULT"
		fragment_size = 8192
		connect_timeout = 10
	}
}
home_server_pool guestwifi {
	type = fail-over
	home_server = guestwifi
}
realm guestwifi {
	auth_pool = guestwifi
	acct_pool = guestwifi
}
modules {
}
server default {
	listen {
		type = auth
		ipaddr = 127.0.0.1
		port = ${authPort}
	}
	listen {
		type = acct
		ipaddr = 127.0.0.1
		port = ${acctPort}
	}
	authorize {
		update control {
			&Proxy-To-Realm := "guestwifi"
		}
	}
	authenticate {
	}
	preacct {
		update control {
			&Proxy-To-Realm := "guestwifi"
		}
	}
	accounting {
	}
}
`;
}

/** Starts FreeRADIUS proxying to our RadSec listener on `serverPort`; resolves once it serves. */
export async function startFreeradiusProxy(serverPort: number, tls: ProxyTls): Promise<FreeradiusProxy> {
  const dir = mkdtempSync(join(tmpdir(), "freeradius-radsec-"));
  for (const d of ["log", "run"]) mkdirSync(join(dir, d));
  writeFileSync(join(dir, "ca.pem"), tls.caCertificate);
  writeFileSync(join(dir, "client.pem"), tls.certificate);
  writeFileSync(join(dir, "client.key"), tls.privateKey, { mode: 0o600 });
  const [authPort, acctPort] = [await freeUdpPort(), await freeUdpPort()];
  writeFileSync(join(dir, "radiusd.conf"), configuration(dir, authPort, acctPort, serverPort));
  const child: ChildProcess = spawn(FREERADIUS, ["-X", "-d", dir], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null && !/Ready to process requests/.test(output)) await new Promise((r) => setTimeout(r, 50));
  if (!/Ready to process requests/.test(output)) {
    await stop();
    throw new Error(`freeradius did not start:\n${output}`);
  }
  return { authPort, acctPort, log: () => output, stop };
}
