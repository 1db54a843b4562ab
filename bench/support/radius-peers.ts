/**
 * The peers of bench/radius.bench.ts: Debian's FreeRADIUS with a generated minimal configuration,
 * radclient in parallel mode, and child processes started and stopped by id.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ReplyValues {
  sessionTimeout: number;
  interim: number;
  upBytes: number;
  downBytes: number;
  cap: number;
}

/** A UDP port free right now on loopback (FreeRADIUS needs fixed ports in its config). */
export async function freePort(): Promise<number> {
  const s = createSocket("udp4");
  await new Promise<void>((resolve) => s.bind(0, "127.0.0.1", resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/**
 * A minimal FreeRADIUS 3 configuration in `dir`: one client (127.0.0.1, `secret`, Message-Authenticator
 * required like ours), the files module answering `users` (each user's password is its MAC, with the
 * same reply attributes as ours), pap, and detail storing accounting as FreeRADIUS's default site does.
 */
/** A RadSec listener for FreeRADIUS (its `tls` site's shape): TLS over TCP, the clients' certificates checked against `caFile`. */
export interface FreeradiusTls {
  port: number;
  certFile: string;
  keyFile: string;
  caFile: string;
}

/**
 * The top of a FreeRADIUS 3 radiusd.conf for a private instance in `dir` (paths, limits, logging to
 * stdout, no reject delay, a thread pool), up to the thread pool's last setting: callers close it.
 */
export function radiusdPreamble(dir: string, radacct: boolean): string {
  return `prefix = /usr
exec_prefix = /usr
sysconfdir = /etc
localstatedir = /var
sbindir = /usr/sbin
raddbdir = ${dir}
confdir = \${raddbdir}
modconfdir = \${confdir}
logdir = ${dir}/log
run_dir = ${dir}/run
${radacct ? `radacctdir = ${dir}/radacct\n` : ""}libdir = /usr/lib/freeradius
pidfile = \${run_dir}/radiusd.pid
name = freeradius
max_request_time = 30
cleanup_delay = 5
max_requests = 65536
hostname_lookups = no
log {
	destination = stdout
	auth = no
}
security {
	allow_core_dumps = no
	max_attributes = 200
	reject_delay = 0
	status_server = no
}
thread pool {
	start_servers = 4
	max_servers = 16
	min_spare_servers = 2
	max_spare_servers = 8
	max_requests_per_server = 0
`;
}

export function freeradiusConfig(dir: string, authPort: number, acctPort: number, secret: string, users: string[], reply: ReplyValues, tls?: FreeradiusTls): void {
  for (const d of ["log", "run", "radacct"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(
    join(dir, "radiusd.conf"),
    `${radiusdPreamble(dir, true)}	auto_limit_acct = no
}
client localhost {
	ipaddr = 127.0.0.1
	secret = ${secret}
	require_message_authenticator = yes
}
clients radsec {
	client radsecproxy {
		ipaddr = 127.0.0.1
		proto = tls
		secret = radsec
	}
}
modules {
	files {
		filename = \${confdir}/users
	}
	pap {
		normalise = yes
	}
	detail {
		filename = \${radacctdir}/detail
		permissions = 0600
		header = "%t"
	}
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
${
  tls
    ? `	listen {
		ipaddr = 127.0.0.1
		port = ${tls.port}
		type = auth+acct
		proto = tcp
		clients = radsec
		limit {
			max_connections = 16
			lifetime = 0
			idle_timeout = 600
		}
		tls {
			private_key_file = ${tls.keyFile}
			certificate_file = ${tls.certFile}
			ca_file = ${tls.caFile}
			require_client_cert = yes
			tls_min_version = "1.2"
			cipher_list = "DEFAULT"
			fragment_size = 8192
		}
	}
`
    : ""
}	authorize {
		files
		pap
	}
	authenticate {
		Auth-Type PAP {
			pap
		}
	}
	preacct {
	}
	accounting {
		detail
	}
}
`,
  );
  const entries = users.map(
    (mac) =>
      `"${mac}" Cleartext-Password := "${mac}"\n\tSession-Timeout = ${reply.sessionTimeout},\n\tAcct-Interim-Interval = ${reply.interim},\n` +
      `\tWISPr-Bandwidth-Max-Up = ${reply.upBytes * 8},\n\tWISPr-Bandwidth-Max-Down = ${reply.downBytes * 8},\n\tChilliSpot-Max-Total-Octets = ${reply.cap}\n`,
  );
  writeFileSync(join(dir, "users"), entries.join("\n"));
}

/** Runs a process until `ready` appears in its output. */
export function startProcess(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} did not start:\n${out}`));
    }, 120_000); // a RadSec target makes its server certificate first: seconds on a busy machine
    const onData = (d: Buffer) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited (${code}) before it was ready:\n${out}`));
    });
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** radclient over a packet file: requests per second, refusing results where anything was rejected or lost. */
export function radclientRate(opts: { port: number; kind: "auth" | "acct"; file: string; repeat: number; parallel: number; secret: string; limitMs: number }): Promise<number> {
  const { port, kind, file, repeat, parallel, secret, limitMs } = opts;
  return new Promise((resolve, reject) => {
    const args = ["-q", "-s", "-p", String(parallel), "-c", String(repeat), "-r", "1", "-t", "5", "-f", file, `127.0.0.1:${port}`, kind, secret];
    const started = process.hrtime.bigint();
    const child = spawn("/usr/bin/radclient", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("close", () => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const num = (label: string) => Number(new RegExp(`${label}\\s*:\\s*(\\d+)`).exec(out)?.[1] ?? Number.NaN);
      const accepted = num("Accepted");
      const rejected = num("Rejected");
      const lost = num("Lost");
      if (!(accepted > 0) || rejected !== 0 || lost !== 0) {
        reject(new Error(`radclient ${kind} to ${port}: accepted ${accepted}, rejected ${rejected}, lost ${lost}\n${out}`));
        return;
      }
      resolve(accepted / seconds);
    });
  });
}

