/**
 * Issue 4 benchmark: Access-Requests and Accounting-Requests per second, sent by Debian's radclient
 * in parallel mode (-p) over loopback, to our RADIUS server (its own process, SQLite) and, in the
 * same run, to Debian's FreeRADIUS with a generated minimal config (files module answering the
 * same users with the same reply attributes, detail module storing accounting, as its default
 * site does). Target: ours at least 0.8 of FreeRADIUS.
 *
 * Access-Requests are returning-guest MAC authentications (User-Name = User-Password = the client
 * MAC, CoovaChilli's default), which stay valid however often they are repeated, unlike one-time
 * portal credentials. Accounting-Requests are Interim-Updates with growing counters, each session
 * several times, so every packet carries new octets to add (nothing is a no-op repeat).
 *
 * RadSec (issue 28): the same Access-Requests, from radclient through Debian's radsecproxy (the
 * gateway side, one per server, same settings) over TLS to our RadSec listener, and to FreeRADIUS's
 * TLS listener (its `tls` site's shape), with certificates of the service's CA for both. Target:
 * ours at least 0.8 of FreeRADIUS.
 *
 * BENCH_RADIUS_DIALECT=postgres: our server on PostgreSQL (a schema of its own in BENCH_POSTGRES_URL,
 * dropped afterwards) instead of SQLite; our CPU per request is still our process's alone. After
 * the unmeasured warm-up round of each kind its tables are analysed, as autovacuum would have done
 * on a live database (they grew from empty a moment before).
 *
 * This file is also the target process: started with --radius-target it runs our service with
 * HTTP off, as `guestwifi serve --radius-only` does.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config.js";
import { createDatabase } from "../src/db/database.js";
import { migrateToLatest } from "../src/db/migrator.js";
import { nowDatetime } from "../src/db/time.js";
import { createAccount } from "../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../src/modules/context.js";
import { recordLogin } from "../src/modules/guests/guest-activity.service.js";
import { startService } from "../src/server.js";
import { cpuMicros } from "./support/load.js";
import { serviceCa, issueDeviceCertificate } from "../src/modules/device-certificates/device-certificates.service.js";
import { issueCertificate } from "../src/modules/device-certificates/certificate-authority.js";
import { PROXY_UDP_SECRET, startRadsecproxy } from "../test/radius/radsecproxy.js";
import { freePort, freeradiusConfig, radclientRate, startProcess, stopProcess } from "./support/radius-peers.js";

const SECRET = "bench-secret-4f9a";
const AP_MAC = "02:42:AC:11:00:02";
const GUESTS = 2000;
const PARALLEL = 64;
const ACCESS_REPEAT = 4;
const INTERIMS_PER_SESSION = 3;
const ROUNDS = 3;
const RADCLIENT_LIMIT_MS = 60_000;
const REPLY = { sessionTimeout: 3600, interim: 300, upBytes: 125_000, downBytes: 250_000, cap: 500_000_000 };
const THIS_FILE = fileURLToPath(import.meta.url);
const DIALECT = process.env.BENCH_RADIUS_DIALECT === "postgres" ? "postgres" : "sqlite";
const PG_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const OURS = `ours (${DIALECT === "postgres" ? "PostgreSQL" : "SQLite"})`;

const clientMac = (i: number) => `AA-BB-CC-${((i >> 16) & 255).toString(16).padStart(2, "0")}-${((i >> 8) & 255).toString(16).padStart(2, "0")}-${(i & 255).toString(16).padStart(2, "0")}`.toUpperCase();

/** Our database: one account, a location with every option on, the AP, and GUESTS returning guests. */
interface BenchTls {
  ca: string;
  device: { certificate: string; privateKey: string };
  freeradius: { certificate: string; privateKey: string };
}

export async function seed(url: string, searchPath?: string): Promise<BenchTls> {
  const db = createDatabase(url, { searchPath });
  await migrateToLatest(db);
  const repos = createRepositories();
  const { accountId } = await createAccount({ db, repos }, "bench@example.com");
  const now = nowDatetime();
  const locationId = await repos.locations.insert(db, {
    account_id: accountId, name: "Bench Cafe", address1: "1 Main St", town: "Springfield", state: "IL", zipcode: "62701",
    country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago", portal_slug: "bench-radius",
    date_created: now, last_modified: now, deleted: 0,
  });
  await repos.locations.upsertOptions(db, {
    location_id: locationId, session_time_limit: REPLY.sessionTimeout, max_bandwidth_up: REPLY.upBytes,
    max_bandwidth_down: REPLY.downBytes, daily_bandwidth_cap: 1_000_000_000_000, content_filter: 0,
    dns_server_1: "", dns_server_2: "", whitelist: "", blacklist: "", updated_at: now,
  });
  const deviceId = await repos.devices.insert(db, {
    account_id: accountId, location_id: locationId, model_id: "bench-ap", name: "Bench AP", mac_address: AP_MAC,
    radius_secret: SECRET, last_upgraded: null, last_heard_at: null, create_date: now, update_date: now,
  });
  // RadSec: the AP's client certificate and FreeRADIUS's server certificate, both from the service's CA.
  const config = loadConfig({});
  const device = await db.selectFrom("devices").selectAll().where("id", "=", deviceId).executeTakeFirstOrThrow();
  const bundle = await issueDeviceCertificate({ db, repos }, config, device);
  const ca = await serviceCa(db, config);
  const t = Date.now();
  const fr = await issueCertificate(ca, { commonName: "127.0.0.1", usage: "server", altNames: ["127.0.0.1", "localhost"], notBefore: new Date(t - 60_000), notAfter: new Date(t + 86_400_000) });
  for (let i = 0; i < GUESTS; i++) {
    await recordLogin(db, {
      accountId, locationId, timezone: "America/Chicago", campaignId: 0, deviceId: null, loginType: "Muser",
      identity: `guest${i}@example.com`, profile: {}, clientMac: clientMac(i).replace(/-/g, ":"), userAgent: "",
    });
  }
  await db.destroy();
  return { ca: ca.certificate, device: { certificate: bundle.issued.certificate, privateKey: bundle.issued.privateKey }, freeradius: fr };
}

function accessFile(file: string): void {
  const out: string[] = [];
  for (let i = 0; i < GUESTS; i++) {
    const mac = clientMac(i);
    out.push(
      `User-Name = "${mac}"\nUser-Password = "${mac}"\nCalled-Station-Id = "${AP_MAC.replace(/:/g, "-")}:Bench"\n` +
        `Calling-Station-Id = "${mac}"\nNAS-IP-Address = 127.0.0.1\nMessage-Authenticator = 0x00\n`,
    );
  }
  writeFileSync(file, out.join("\n"));
}

/** Every session's interims in order (the first of all sessions, then the second...), counters growing. */
export function accountingFile(file: string, tag: string): number {
  const out: string[] = [];
  for (let k = 1; k <= INTERIMS_PER_SESSION; k++) {
    for (let i = 0; i < GUESTS; i++) {
      const mac = clientMac(i);
      out.push(
        `Acct-Status-Type = Interim-Update\nAcct-Session-Id = "${tag}-${i}"\nUser-Name = "${mac}"\n` +
          `Called-Station-Id = "${AP_MAC.replace(/:/g, "-")}:Bench"\nCalling-Station-Id = "${mac}"\nNAS-IP-Address = 127.0.0.1\n` +
          `Acct-Session-Time = ${k * 300}\nAcct-Input-Octets = ${k * 150_000 + i}\nAcct-Output-Octets = ${k * 900_000 + i}\n`,
      );
    }
  }
  writeFileSync(file, out.join("\n"));
  return out.length;
}

const rate = (port: number, kind: "auth" | "acct", file: string, repeat: number) =>
  radclientRate({ port, kind, file, repeat, parallel: PARALLEL, secret: SECRET, limitMs: RADCLIENT_LIMIT_MS });

/** CPU seconds (user + system) a process has used so far, from /proc. */
async function cpuOf(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function serveTarget(): Promise<void> {
  const config = loadConfig();
  const service = await startService(config, { http: false, radius: true });
  process.stdout.write(`radius target ready ${service.radius!.authPort} ${service.radius!.acctPort}\n`);
  const stop = () => {
    void service.stop().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

export default async function radiusBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "guestwifi-radius-bench-"));
  const schema = DIALECT === "postgres" ? `bench_radius_${randomBytes(4).toString("hex")}` : undefined;
  const admin = schema ? createDatabase(PG_URL, { poolSize: 1 }) : undefined;
  const children: ChildProcess[] = [];
  try {
    const dbFile = join(dir, "bench.db");
    const url = DIALECT === "postgres" ? PG_URL : `sqlite:${dbFile}`;
    if (schema) await sql`create schema ${sql.id(schema)}`.execute(admin!);
    const t0 = Date.now();
    const tls = await seed(url, schema);
    const [ourAuth, ourAcct, frAuth, frAcct, ourTls, frTls] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const frDir = join(dir, "freeradius");
    const pem = (name: string, text: string) => {
      writeFileSync(join(dir, name), text, { mode: 0o600 });
      return join(dir, name);
    };
    const frCertFile = pem("fr.pem", tls.freeradius.certificate);
    const frKeyFile = pem("fr.key", tls.freeradius.privateKey);
    const caFile = pem("ca.pem", tls.ca);
    freeradiusConfig(frDir, frAuth, frAcct, SECRET, Array.from({ length: GUESTS }, (_, i) => clientMac(i)), REPLY, { port: frTls, certFile: frCertFile, keyFile: frKeyFile, caFile });
    const access = join(dir, "access.txt");
    accessFile(access);
    console.log(`setup: ${GUESTS} returning guests, radclient -p ${PARALLEL}, ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // BENCH_CPU_PROF_DIR=<dir> writes a CPU profile of our server process there.
    const profile = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
    const ours = await startProcess(
      process.execPath,
      [...profile, "--import", "tsx", THIS_FILE, "--radius-target"],
      { DATABASE_URL: url, ...(schema ? { PGOPTIONS: `-c search_path=${schema}` } : {}), LOG_LEVEL: "warn", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: String(ourAuth), RADIUS_ACCT_PORT: String(ourAcct), RADIUS_INTERIM_INTERVAL: String(REPLY.interim), RADSEC_ENABLED: "true", RADSEC_HOST: "127.0.0.1", RADSEC_PORT: String(ourTls) },
      /radius target ready/,
    );
    children.push(ours);
    const freeradius = await startProcess("/usr/sbin/freeradius", ["-f", "-l", "stdout", "-d", frDir], {}, /Ready to process requests/);
    children.push(freeradius);

    // Warm-up (JIT, caches, thread pools), not measured: a round of each kind.
    await rate(ourAuth, "auth", access, 1);
    await rate(frAuth, "auth", access, 1);
    const warmOurs = join(dir, "acct-ours-warm.txt");
    const warmFr = join(dir, "acct-fr-warm.txt");
    accountingFile(warmOurs, "ours-warm");
    accountingFile(warmFr, "fr-warm");
    await rate(ourAcct, "acct", warmOurs, 1);
    await rate(frAcct, "acct", warmFr, 1);
    if (admin) {
      // A live database's tables are not empty, and autovacuum has given the planner their
      // statistics; these grew from nothing a moment ago. Without them PostgreSQL planned the
      // batch of Interim-Updates as a scan of every open session (13 to 15 ms for 20 packets at
      // 20,000 open sessions, 2.7 ms with statistics).
      await sql`analyze ${sql.id(schema!)}.radius_sessions, ${sql.id(schema!)}.guests, ${sql.id(schema!)}.guest_macs, ${sql.id(schema!)}.daily_usage`.execute(admin);
    }

    const best = { ours: { auth: 0, acct: 0 }, freeradius: { auth: 0, acct: 0 } };
    // CPU time per request of each server (user + system, from /proc): unlike req/s it does not
    // depend on how much of the machine the other processes left each server. Lowest of the rounds.
    const cpu = { ours: { auth: Infinity, acct: Infinity }, freeradius: { auth: Infinity, acct: Infinity } };
    const measured = async (who: "ours" | "freeradius", kind: "auth" | "acct", pid: number | undefined, requests: number, run: () => Promise<number>) => {
      const before = pid === undefined ? undefined : cpuMicros(pid);
      const from = process.hrtime.bigint();
      best[who][kind] = Math.max(best[who][kind], await run());
      const after = pid === undefined ? undefined : cpuMicros(pid);
      // With a profile: each phase's monotonic window (µs, the clock the profile's timestamps use).
      if (profile.length > 0 && who === "ours") console.log(`profile window ${kind} ${from / 1000n} ${process.hrtime.bigint() / 1000n}`);
      if (before !== undefined && after !== undefined) cpu[who][kind] = Math.min(cpu[who][kind], (after - before) / requests);
    };
    for (let round = 0; round < ROUNDS; round++) {
      await measured("ours", "auth", ours.pid, GUESTS * ACCESS_REPEAT, () => rate(ourAuth, "auth", access, ACCESS_REPEAT));
      await measured("freeradius", "auth", freeradius.pid, GUESTS * ACCESS_REPEAT, () => rate(frAuth, "auth", access, ACCESS_REPEAT));
      const acctOurs = join(dir, `acct-ours-${round}.txt`);
      const acctFr = join(dir, `acct-fr-${round}.txt`);
      accountingFile(acctOurs, `ours-${round}`);
      accountingFile(acctFr, `fr-${round}`);
      await measured("ours", "acct", ours.pid, GUESTS * INTERIMS_PER_SESSION, () => rate(ourAcct, "acct", acctOurs, 1));
      await measured("freeradius", "acct", freeradius.pid, GUESTS * INTERIMS_PER_SESSION, () => rate(frAcct, "acct", acctFr, 1));
    }
    const line = (what: string, kind: "auth" | "acct") => {
      const [o, f] = [best.ours[kind], best.freeradius[kind]];
      const [co, cf] = [cpu.ours[kind], cpu.freeradius[kind]];
      console.log(
        `${what.padEnd(22)} ${OURS} ${Math.round(o).toString().padStart(6)} req/s   FreeRADIUS 3.2 ${Math.round(f).toString().padStart(6)} req/s   ratio ${(o / f).toFixed(2)} (target >= 0.80)` +
          `   cpu ours ${co.toFixed(1)} us/req, FreeRADIUS ${cf.toFixed(1)} us/req (FreeRADIUS / ours ${(cf / co).toFixed(2)})`,
      );
    };
    console.log(`best of ${ROUNDS} rounds; ${GUESTS * ACCESS_REPEAT} Access-Requests and ${GUESTS * INTERIMS_PER_SESSION} Accounting-Requests per round`);
    line("Access-Request", "auth");
    line("Accounting-Request", "acct");

    // RadSec: radclient -> radsecproxy (UDP in, TLS out) -> each server, the same requests.
    const proxyTls = { caCertificate: tls.ca, ...tls.device };
    const toOurs = await startRadsecproxy(ourTls, proxyTls, { logLevel: 1 });
    const toFr = await startRadsecproxy(frTls, proxyTls, { logLevel: 1 });
    try {
      const viaProxy = (port: number, repeat: number) => radclientRate({ port, kind: "auth", file: access, repeat, parallel: PARALLEL, secret: PROXY_UDP_SECRET, limitMs: RADCLIENT_LIMIT_MS });
      await viaProxy(toOurs.udpPort, 1);
      await viaProxy(toFr.udpPort, 1);
      const tlsBest = { ours: 0, freeradius: 0 };
      const cpu = { ours: 0, requests: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const before = await cpuOf(ours.pid!);
        tlsBest.ours = Math.max(tlsBest.ours, await viaProxy(toOurs.udpPort, ACCESS_REPEAT));
        cpu.ours += (await cpuOf(ours.pid!)) - before;
        cpu.requests += GUESTS * ACCESS_REPEAT;
        tlsBest.freeradius = Math.max(tlsBest.freeradius, await viaProxy(toFr.udpPort, ACCESS_REPEAT));
      }
      console.log(
        `${"Access-Request RadSec".padEnd(22)} ${OURS} ${Math.round(tlsBest.ours).toString().padStart(6)} req/s   FreeRADIUS 3.2 ${Math.round(tlsBest.freeradius).toString().padStart(6)} req/s   ratio ${(tlsBest.ours / tlsBest.freeradius).toFixed(2)} (target >= 0.80)`,
      );
      console.log(`RadSec CPU of our process: ${((cpu.ours / cpu.requests) * 1e6).toFixed(0)} µs per Access-Request (through radsecproxy, same run)`);
    } finally {
      await toOurs.stop();
      await toFr.stop();
    }

    // The work was real: every session stored, every octet counted once.
    await stopProcess(ours);
    const db = createDatabase(url, { searchPath: schema });
    const sessions = await db.selectFrom("radius_sessions").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const totals = await db.selectFrom("guests").select((eb) => eb.fn.sum<number>("radius_total_bandwidth_input").as("input")).executeTakeFirstOrThrow();
    await db.destroy();
    // The warm-up's round too.
    const rounds = ROUNDS + 1;
    const expectedInput = rounds * Array.from({ length: GUESTS }, (_, i) => INTERIMS_PER_SESSION * 150_000 + i).reduce((a, b) => a + b, 0);
    if (Number(sessions.n) !== rounds * GUESTS || Number(totals.input) !== expectedInput) {
      throw new Error(`accounting totals wrong: ${sessions.n} sessions, ${totals.input} input octets, expected ${rounds * GUESTS} and ${expectedInput}`);
    }
    console.log(`verified: ${sessions.n} sessions stored, ${totals.input} input octets counted exactly once`);
  } finally {
    for (const c of children) await stopProcess(c);
    rmSync(dir, { recursive: true, force: true });
    if (admin) {
      await sql`drop schema if exists ${sql.id(schema!)} cascade`.execute(admin);
      await admin.destroy();
    }
  }
}

if (process.argv.includes("--radius-target")) await serveTarget();
