/**
 * Issue 29 benchmark: full EAP-TTLS/PAP and EAP-TLS authentications per second and their p99,
 * by Debian's eapol_test (wpa_supplicant's EAP peer, one process per authentication, several in
 * parallel) over loopback UDP, to our RADIUS server (its own process, SQLite) and, in the same
 * run, to Debian's FreeRADIUS 3.2 with its eap module (tls and ttls, inner PAP through its
 * inner-tunnel site, files module for the users). Same certificates (the service CA's) for both.
 * Target: ours at least 0.5 of FreeRADIUS. Also the CPU each server spent per authentication
 * (from /proc), which does not depend on how much of the machine eapol_test left it.
 *
 * Users are returning guests named by their MAC (inner User-Name for TTLS, the certificate's
 * Common Name for TLS), so one user may authenticate any number of times (a portal credential is
 * single-use). BENCH_EAP_COUNT (default 1000) authentications per method and server.
 */
import type { ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase } from "../src/db/database.js";
import { migrateToLatest } from "../src/db/migrator.js";
import { nowDatetime } from "../src/db/time.js";
import { loadConfig } from "../src/config.js";
import { createAccount } from "../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../src/modules/context.js";
import { issueCertificate } from "../src/modules/device-certificates/certificate-authority.js";
import { serviceCa } from "../src/modules/device-certificates/device-certificates.service.js";
import { recordLogin } from "../src/modules/guests/guest-activity.service.js";
import { networkBlock } from "../test/radius/eapol-test.js";
import { cpuMicros } from "./support/load.js";
import { freePort, radiusdPreamble, startProcess, stopProcess } from "./support/radius-peers.js";

const SECRET = "bench-eap-secret-7c1d";
const AP_MAC = "02:42:AC:11:00:29";
const PARALLEL = 6;
const COUNT = Number(process.env.BENCH_EAP_COUNT ?? 1000);
const RADIUS_TARGET = join(fileURLToPath(new URL(".", import.meta.url)), "radius.bench.ts");

const macOf = (i: number) => `AA-BB-CC-29-00-${i.toString(16).padStart(2, "0")}`.toUpperCase();

interface Seeded {
  ca: string;
  server: { certificate: string; privateKey: string };
  clients: { certificate: string; privateKey: string }[];
}

async function seed(dbFile: string): Promise<Seeded> {
  const db = createDatabase(`sqlite:${dbFile}`);
  await migrateToLatest(db);
  const repos = createRepositories();
  const { accountId } = await createAccount({ db, repos }, "bench-eap@example.com");
  const now = nowDatetime();
  const locationId = await repos.locations.insert(db, {
    account_id: accountId, name: "Bench EAP", address1: "1 Main St", town: "Springfield", state: "IL", zipcode: "62701",
    country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago", portal_slug: "bench-eap",
    date_created: now, last_modified: now, deleted: 0,
  });
  await repos.locations.upsertOptions(db, {
    location_id: locationId, session_time_limit: 3600, max_bandwidth_up: 0, max_bandwidth_down: 0, daily_bandwidth_cap: 0,
    content_filter: 0, dns_server_1: "", dns_server_2: "", whitelist: "", blacklist: "", updated_at: now,
  });
  await repos.devices.insert(db, {
    account_id: accountId, location_id: locationId, model_id: "bench-ap", name: "Bench AP", mac_address: AP_MAC,
    radius_secret: SECRET, last_upgraded: null, last_heard_at: null, create_date: now, update_date: now,
  });
  const ca = await serviceCa(db, loadConfig({}));
  const t = Date.now();
  const validity = { notBefore: new Date(t - 60_000), notAfter: new Date(t + 86_400_000) };
  const server = await issueCertificate(ca, { commonName: "127.0.0.1", usage: "server", altNames: ["127.0.0.1", "localhost"], ...validity });
  const clients = [];
  for (let i = 0; i < PARALLEL; i++) {
    await recordLogin(db, {
      accountId, locationId, timezone: "America/Chicago", campaignId: 0, deviceId: null, loginType: "Muser",
      identity: `eap${i}@example.com`, profile: {}, clientMac: macOf(i).replace(/-/g, ":"), userAgent: "",
    });
    clients.push(await issueCertificate(ca, { commonName: macOf(i), usage: "client", ...validity }));
  }
  await db.destroy();
  return { ca: ca.certificate, server: { certificate: `${server.certificate}${ca.certificate}`, privateKey: server.privateKey }, clients };
}

/** FreeRADIUS 3.2 with the eap module: tls and ttls on one tls-common, inner PAP in inner-tunnel. */
function freeradiusEapConfig(dir: string, port: number, files: { cert: string; key: string; ca: string }): void {
  for (const d of ["log", "run"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(
    join(dir, "radiusd.conf"),
    `${radiusdPreamble(dir, false)}}
client localhost {
	ipaddr = 127.0.0.1
	secret = ${SECRET}
	require_message_authenticator = yes
}
modules {
	files {
		filename = \${confdir}/users
	}
	pap {
		normalise = yes
	}
	eap {
		default_eap_type = ttls
		timer_expire = 60
		max_sessions = 16384
		tls-config tls-common {
			private_key_file = ${files.key}
			certificate_file = ${files.cert}
			ca_file = ${files.ca}
			tls_min_version = "1.2"
			tls_max_version = "1.2"
			cipher_list = "DEFAULT"
			fragment_size = 1024
			cache {
				enable = no
			}
		}
		tls {
			tls = tls-common
		}
		ttls {
			tls = tls-common
			default_eap_type = md5
			virtual_server = "inner-tunnel"
		}
	}
}
server default {
	listen {
		type = auth
		ipaddr = 127.0.0.1
		port = ${port}
	}
	authorize {
		eap {
			ok = return
		}
		files
		pap
	}
	authenticate {
		eap
		Auth-Type PAP {
			pap
		}
	}
}
server inner-tunnel {
	authorize {
		files
		pap
	}
	authenticate {
		Auth-Type PAP {
			pap
		}
	}
}
`,
  );
  const users = Array.from({ length: PARALLEL }, (_, i) => `"${macOf(i)}" Cleartext-Password := "${macOf(i)}"\n\tSession-Timeout = 3600\n`);
  writeFileSync(join(dir, "users"), users.join("\n"));
}

/** One eapol_test run; resolves with its wall time in ms, or throws with its output's tail. */
function eapolOnce(conf: string, port: number, clientMac: string): Promise<number> {
  const started = performance.now();
  const args = ["-c", conf, "-a", "127.0.0.1", "-p", String(port), "-s", SECRET, "-M", clientMac, `-N30:s:${AP_MAC.replaceAll(":", "-")}:Bench`, "-t", "20"];
  return new Promise((resolve, reject) => {
    execFile("/usr/bin/eapol_test", args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err || !/MPPE keys OK: 1 {2}mismatch: 0/.test(stdout)) reject(new Error(`eapol_test failed:\n${stdout.slice(-2000)}`));
      else resolve(performance.now() - started);
    });
  });
}

interface Result {
  rate: number;
  p99: number;
  cpuUs: number;
}

/** COUNT authentications, PARALLEL at a time, each worker with its own user (conf file). */
async function run(confs: string[], port: number, pid: number): Promise<Result> {
  const times: number[] = [];
  let next = 0;
  const cpuBefore = cpuMicros(pid) ?? 0;
  const t0 = performance.now();
  await Promise.all(
    confs.map(async (conf, w) => {
      while (next < COUNT) {
        next++;
        times.push(await eapolOnce(conf, port, macOf(w).replaceAll("-", ":")));
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = (cpuMicros(pid) ?? 0) - cpuBefore;
  times.sort((a, b) => a - b);
  return { rate: times.length / elapsed, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], cpuUs: cpu / times.length };
}

export default async function eapBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "guestwifi-eap-bench-"));
  const children: ChildProcess[] = [];
  try {
    const dbFile = join(dir, "bench.db");
    const s = await seed(dbFile);
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text, { mode: 0o600 });
      return join(dir, name);
    };
    const files = { cert: file("server.pem", s.server.certificate), key: file("server.key", s.server.privateKey), ca: file("ca.pem", s.ca) };
    const confs = { ttls: [] as string[], tls: [] as string[] };
    for (let i = 0; i < PARALLEL; i++) {
      const mac = macOf(i);
      for (const method of ["ttls", "tls"] as const) {
        const wdir = join(dir, `${method}-${i}`);
        mkdirSync(wdir);
        const net =
          method === "ttls"
            ? { eap: "TTLS" as const, identity: mac, password: mac, caCert: s.ca }
            : { eap: "TLS" as const, identity: mac, clientCert: s.clients[i].certificate, privateKey: s.clients[i].privateKey, caCert: s.ca };
        confs[method].push(file(`${method}-${i}.conf`, networkBlock(net, wdir)));
      }
    }
    const [ourAuth, ourAcct, frAuth] = [await freePort(), await freePort(), await freePort()];
    freeradiusEapConfig(join(dir, "freeradius"), frAuth, files);
    const ours = await startProcess(
      process.execPath,
      ["--import", "tsx", RADIUS_TARGET, "--radius-target"],
      { DATABASE_URL: `sqlite:${dbFile}`, LOG_LEVEL: "warn", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: String(ourAuth), RADIUS_ACCT_PORT: String(ourAcct), EAP_CERT: files.cert, EAP_KEY: files.key },
      /radius target ready/,
    );
    children.push(ours);
    const freeradius = await startProcess("/usr/sbin/freeradius", ["-f", "-l", "stdout", "-d", join(dir, "freeradius")], {}, /Ready to process requests/);
    children.push(freeradius);
    // Warm-up: one of each, not measured.
    for (const method of ["ttls", "tls"] as const) {
      await eapolOnce(confs[method][0], ourAuth, macOf(0).replaceAll("-", ":"));
      await eapolOnce(confs[method][0], frAuth, macOf(0).replaceAll("-", ":"));
    }
    console.log(`${COUNT} authentications per method and server, eapol_test x${PARALLEL} in parallel, TLS 1.2, full handshakes`);
    for (const method of ["ttls", "tls"] as const) {
      const o = await run(confs[method], ourAuth, ours.pid!);
      const f = await run(confs[method], frAuth, freeradius.pid!);
      const name = method === "ttls" ? "EAP-TTLS/PAP" : "EAP-TLS";
      console.log(
        `${name.padEnd(13)} ours ${o.rate.toFixed(1).padStart(6)} auth/s p99 ${o.p99.toFixed(0).padStart(5)} ms   FreeRADIUS 3.2 ${f.rate.toFixed(1).padStart(6)} auth/s p99 ${f.p99.toFixed(0).padStart(5)} ms   ratio ${(o.rate / f.rate).toFixed(2)} (target >= 0.50)` +
          `   cpu ours ${(o.cpuUs / 1000).toFixed(2)} ms/auth, FreeRADIUS ${(f.cpuUs / 1000).toFixed(2)} ms/auth (FreeRADIUS / ours ${(f.cpuUs / o.cpuUs).toFixed(2)})`,
      );
    }
  } finally {
    for (const c of children) await stopProcess(c);
    rmSync(dir, { recursive: true, force: true });
  }
}
