/**
 * Issue 23 benchmark: a venue day on one instance, every path at once, open loop (requests go out
 * at their rate whatever the answers do), on SQLite and PostgreSQL:
 * - interim accounting of GUESTS guests at the interim interval (200,000 every 300 s: about 667/s),
 * - MAC re-authorisations of returning guests (1,000/s),
 * - a login burst at one location (custom form, 500/s for 10 s, from a third of the run),
 * - RFC 8908 captive-portal API polls (200/s), the console's overview (5/s), an operator reading
 *   session-list over the API (20/s),
 * - webhook deliveries (session and login events) to a local receiver.
 * Modes: `stadium` (every guest and access point at one location), `spread` (the same load over
 * many locations) and `flood` (MAC re-authorisations alone at 5,000/s: what is answered, what is
 * dropped, and whether memory stays flat).
 *
 * Prints per path the rate achieved, p50 and p99, what went unanswered; for the run the service's
 * CPU per operation (and PostgreSQL's backends'), how busy its event loop was per 10 s window (the
 * one thread every path shares), its memory, the database's growth per day at this
 * load and, on PostgreSQL, what its connections waited on. Targets: RADIUS p99 under 20 ms, HTTP
 * under 50 ms, everything answered.
 *
 * Environment: BENCH_CAPACITY_SECONDS (60), BENCH_CAPACITY_GUESTS (200000), BENCH_CAPACITY_INTERVAL (300), BENCH_CAPACITY_MODES
 * (stadium,spread,flood), BENCH_CAPACITY_DIALECTS (sqlite,postgres), BENCH_CAPACITY_APS (100),
 * BENCH_CAPACITY_LOCATIONS (spread: 100), rates BENCH_CAPACITY_MAC_RATE, _LOGIN_RATE, _POLL_RATE,
 * _OVERVIEW_RATE, _API_RATE, _FLOOD_RATE, BENCH_CAPACITY_SCALE (every rate times this: 0.1 on a busy
 * machine; CPU per operation carries over), BENCH_CAPACITY_FIRST_VISITS (1: no visit of today
 * counted before the run), BENCH_CAPACITY_WARM (1, the default: every guest's session reports once,
 * as fast as it is answered, before the measured run, so the service has been up for an interval as
 * it is for most of a day; 0: the run is the first interval after a restart), BENCH_CAPACITY_SPLIT
 * (0, the default: one instance serves everything; 1: two instances on the database, one
 * `--no-radius` for HTTP and one `--radius-only`, their CPU and memory summed and each one's event
 * loop printed), BENCH_POSTGRES_URL, BENCH_CPU_PROF_DIR.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { type CapacityOptions, type CapacityTargetInfo, CAPACITY_SECRET, guestMac, radiusFile } from "./support/capacity-target.js";
import { cpuMicros } from "./support/load.js";
import { HttpPath, type PathStats, RadiusPath, Schedule, interimRequest, macAuthRequest, p99ByWindow, percentile } from "./support/open-loop.js";
import { startTarget } from "./support/target.js";

const env = (name: string, fallback: number) => Number(process.env[`BENCH_CAPACITY_${name}`] ?? fallback);
const SECONDS = env("SECONDS", 60);
const GUESTS = env("GUESTS", 200_000);
/** Each guest's interim interval in s (BENCH_CAPACITY_INTERVAL): shorter than the run, every session is seen again. */
const INTERVAL = env("INTERVAL", 300);
const APS = env("APS", 100);
const SPREAD_LOCATIONS = env("LOCATIONS", 100);
/** Every rate times this (a busy machine: measure a fraction of the venue day, CPU per operation carries over). */
const SCALE = env("SCALE", 1);
const RATES = {
  acct: (GUESTS / INTERVAL) * SCALE,
  mac: env("MAC_RATE", 1000) * SCALE,
  login: env("LOGIN_RATE", 500) * SCALE,
  poll: env("POLL_RATE", 200) * SCALE,
  overview: env("OVERVIEW_RATE", 5) * SCALE,
  api: env("API_RATE", 20) * SCALE,
  flood: env("FLOOD_RATE", 5000) * SCALE,
};
const LOGIN_SECONDS = Math.min(10, SECONDS / 3);
/**
 * The guests online have today's visit counted, as their sessions' first packets (today) counted
 * it: the service is restarted in the middle of the day. BENCH_CAPACITY_FIRST_VISITS=1: none is
 * counted yet, so every guest's first packet in the run writes its visit of the day (the runs
 * before 2026-11-28's fifth session, and the flood's database growth in docs/operations.md).
 */
const VISITS_COUNTED = process.env.BENCH_CAPACITY_FIRST_VISITS !== "1";
/**
 * BENCH_CAPACITY_WARM=1 (the default): each guest's session reports once before the measured run
 * (closed loop, printed as the first interval after a restart), so that the run sees the service as
 * it is after an interval: the day's usage written, the sessions known to its memo. 0: the run is
 * that first interval, when every session is new to the service (the runs before 2026-11-28's
 * seventh session).
 */
const WARM = process.env.BENCH_CAPACITY_WARM !== "0";
/** BENCH_CAPACITY_SPLIT=1: RADIUS in an instance of its own, HTTP in another (docs/operations.md measures both shapes). */
const SPLIT = process.env.BENCH_CAPACITY_SPLIT === "1";
const MODES = (process.env.BENCH_CAPACITY_MODES ?? "stadium,spread,flood").split(",") as ("stadium" | "spread" | "flood")[];
const DIALECTS = (process.env.BENCH_CAPACITY_DIALECTS ?? "sqlite,postgres").split(",");
const PG_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const TARGET = "bench/support/capacity-target.ts";
/** BENCH_CPU_PROF_DIR=<dir>: a CPU profile of each service process is written there. */
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
/** The p99 of each such window is printed under a path's line (when its slow answers came). */
const WINDOW_S = 10;
/** After the schedules end, answers still arriving within this long count. */
const GRACE_MS = 3000;
/** The service's own CPU with nothing asked, measured this long before the load. */
const IDLE_MS = 3000;
const TARGET_MS = { radius: 20, http: 50 };

interface Sample {
  rssMb: number;
  cpuUs: number;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The database's size in bytes (SQLite: pages in use; PostgreSQL: the schema's tables with indexes and TOAST). */
async function dbBytes(dialect: string, file: string, schema: string): Promise<number> {
  if (dialect === "sqlite") {
    const db = new SQLite(file, { readonly: true });
    try {
      const pages = Number(db.pragma("page_count", { simple: true })) - Number(db.pragma("freelist_count", { simple: true }));
      return pages * Number(db.pragma("page_size", { simple: true }));
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const r = await c.query(
      "select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'",
      [schema],
    );
    return Number(r.rows[0].n);
  } finally {
    await c.end();
  }
}

/** PostgreSQL's side: CPU of the service's backends (by application_name) and what they wait on, sampled each second. */
class PgWatch {
  private client: pg.Client | undefined;
  private cpu = new Map<number, { first: number; last: number }>();
  readonly waits = new Map<string, number>();
  samples = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly appName: string) {}

  async start(): Promise<void> {
    this.client = new pg.Client({ connectionString: PG_URL });
    await this.client.connect();
    await this.sample();
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 1000);
  }

  private async sample(): Promise<void> {
    const r = await this.client!.query<{ pid: number; state: string; wait: string | null }>(
      "select pid, state, wait_event_type || ':' || wait_event as wait from pg_stat_activity where application_name = $1",
      [this.appName],
    );
    this.samples++;
    for (const row of r.rows) {
      const us = cpuMicros(row.pid);
      if (us !== undefined) {
        const seen = this.cpu.get(row.pid);
        if (seen) seen.last = us;
        else this.cpu.set(row.pid, { first: us, last: us });
      }
      const key = row.state === "active" ? `active ${row.wait ?? "on CPU"}` : row.state === "idle in transaction" ? `idle in transaction (${row.wait ?? ""})` : undefined;
      if (key) this.waits.set(key, (this.waits.get(key) ?? 0) + 1);
    }
  }

  /** Counts from now on (after a warm-up): CPU and waits before are forgotten. */
  rebase(): void {
    for (const v of this.cpu.values()) v.first = v.last;
    this.waits.clear();
    this.samples = 0;
  }

  /** CPU µs the backends used between start and stop (a backend that came and went between samples is missed). */
  cpuUs(): number {
    let sum = 0;
    for (const v of this.cpu.values()) sum += v.last - v.first;
    return sum;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sample().catch(() => undefined);
    await this.client?.end();
  }
}

/** The receiver of the account's webhooks: counts deliveries and their delay after the event. */
function webhookReceiver(): Promise<{ port: number; stats: PathStats; close(): Promise<void> }> {
  const stats: PathStats = { name: "webhook deliveries", offered: 0, sent: 0, answered: 0, failed: 0, latencies: [], sentAt: [], seconds: 0 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      stats.answered++;
      try {
        const at = Date.parse((JSON.parse(body) as { timestamp: string }).timestamp);
        stats.latencies.push(Date.now() - at);
        stats.sentAt.push(at);
      } catch {
        stats.failed++;
      }
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      resolve({ port, stats, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");

function printPath(s: PathStats, targetMs: number | undefined): boolean {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const lost = s.sent - s.answered;
  const achieved = s.seconds > 0 ? s.answered / s.seconds : s.answered / SECONDS;
  const p99 = percentile(sorted, 0.99);
  const held = targetMs === undefined ? undefined : lost <= s.sent * 0.001 && s.failed === 0 && p99 < targetMs;
  const verdict = held === undefined ? "" : held ? "  held" : `  NOT held (target p99 < ${targetMs} ms, all answered)`;
  console.log(
    `  ${s.name.padEnd(30)} offered ${fmt(s.offered, 0).padStart(6)}/s  answered ${fmt(achieved, 0).padStart(6)}/s  p50 ${fmt(percentile(sorted, 0.5)).padStart(7)} ms  p99 ${fmt(p99).padStart(7)} ms  unanswered ${String(lost).padStart(6)}  failed ${String(s.failed).padStart(4)}${verdict}`,
  );
  const windows = p99ByWindow(s, WINDOW_S);
  if (windows.length > 1) console.log(`  ${"".padEnd(30)} p99 by ${WINDOW_S} s from its first request: ${windows.map((w) => fmt(w, 0)).join(", ")} ms`);
  return held !== false;
}

/**
 * Sends one Interim-Update of every guest's session, at most IN_FLIGHT unanswered at a time, and
 * prints how fast they were answered and what they cost: the interval after a restart, when every
 * session is new to the service. Stops when all are answered or nothing was answered for 5 s.
 */
async function warmSessions(port: number, serviceCpu: () => number, pgWatch: PgWatch | undefined, build: (id: number, n: number) => Buffer): Promise<void> {
  const IN_FLIGHT = 256;
  const path = new RadiusPath("warm-up", port, 5, 8);
  const cpuBefore = serviceCpu();
  const pgBefore = pgWatch?.cpuUs() ?? 0;
  const started = performance.now();
  let n = 0;
  let progressAt = started;
  let answered = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      while (n < GUESTS && path.stats.sent - path.stats.answered < IN_FLIGHT) {
        const at = n++;
        path.send((id) => build(id, at));
      }
      const now = performance.now();
      if (path.stats.answered > answered) {
        answered = path.stats.answered;
        progressAt = now;
      }
      if (answered >= GUESTS || now - progressAt > 5000) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  path.close();
  const seconds = (performance.now() - started) / 1000;
  const each = Math.max(1, answered);
  const pg = pgWatch ? `, PostgreSQL backends ${fmt((pgWatch.cpuUs() - pgBefore) / each)} us` : "";
  console.log(
    `  warm-up (the first interval after a restart, closed loop, ${IN_FLIGHT} in flight): ${answered.toLocaleString("en")} of ${GUESTS.toLocaleString("en")} sessions' ` +
      `Interim-Updates answered in ${fmt(seconds, 0)} s, ${fmt(answered / seconds, 0)}/s, service ${fmt((serviceCpu() - cpuBefore) / each)} us CPU per packet${pg}`,
  );
}

async function runOne(dialect: string, mode: "stadium" | "spread" | "flood"): Promise<void> {
  const tag = randomBytes(4).toString("hex");
  const file = join(tmpdir(), `guestwifi-capacity-${tag}.db`);
  const schema = `bench_capacity_${tag}`;
  const appName = `guestwifi-capacity-${tag}`;
  const receiver = await webhookReceiver();
  const flood = mode === "flood";
  const opts: CapacityOptions = {
    mode: mode === "spread" ? "spread" : "stadium",
    guests: GUESTS,
    aps: APS,
    locations: mode === "spread" ? SPREAD_LOCATIONS : 1,
    webhookUrl: `http://127.0.0.1:${receiver.port}/hook`,
    logFile: join(tmpdir(), `guestwifi-capacity-${tag}.log`),
    eluFile: join(tmpdir(), `guestwifi-capacity-${tag}.elu`),
    visitsCounted: VISITS_COUNTED,
    split: SPLIT,
  };
  const url = dialect === "sqlite" ? `sqlite:${file}` : PG_URL;
  // The service's connections find the schema by PGOPTIONS and name themselves for pg_stat_activity.
  Object.assign(process.env, { PGOPTIONS: `-c search_path=${schema}`, PGAPPNAME: appName });
  const target = await startTarget<CapacityTargetInfo>(TARGET, [url, dialect === "sqlite" ? "" : schema, JSON.stringify(opts)], 30 * 60_000, PROFILE).finally(() => {
    delete process.env.PGOPTIONS;
    delete process.env.PGAPPNAME;
  });
  const paths: { stats: PathStats; targetMs?: number }[] = [];
  const opened: { close(): void }[] = [];
  // The service's processes: one, or with SPLIT the HTTP instance and the RADIUS one.
  const pids = [target.pid, ...(target.info.radiusPid ? [target.info.radiusPid] : [])];
  const serviceCpu = () => pids.reduce((sum, pid) => sum + (cpuMicros(pid) ?? 0), 0);
  const serviceRss = () => pids.reduce((sum, pid) => sum + rssMb(pid), 0);
  try {
    const i = target.info;
    console.log(
      `\n${dialect === "sqlite" ? "SQLite" : "PostgreSQL"}, ${mode}${SPLIT ? ", two instances (HTTP --no-radius, RADIUS --radius-only)" : ""}: ${GUESTS.toLocaleString("en")} guests online, ${i.aps.length} access points at ${i.locationIds.length} location(s), ` +
        `${SECONDS} s (seeded in ${i.seedSeconds.toFixed(0)} s; ${VISITS_COUNTED ? "today's visits already counted" : "no visit counted yet: every guest's first packet writes one"})`,
    );
    const acct = new RadiusPath("interim accounting", i.acctPort, 5);
    const mac = new RadiusPath(flood ? "MAC re-auth flood" : "MAC re-auth", i.authPort, 2);
    const login = new HttpPath("portal login burst", i.port, (s) => s === 303, 64);
    const poll = new HttpPath("RFC 8908 API polls", i.port, (s) => s === 200);
    const overview = new HttpPath("console overview", i.port, (s) => s === 200, 4);
    const api = new HttpPath("API session-list", i.port, (s) => s === 200, 8);
    opened.push(acct, mac, login, poll, overview, api);
    const apOf = (g: number) => i.aps[g % i.aps.length];
    const today = new Date().toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const loginAt = Math.max(0, SECONDS / 3);
    const schedules: Schedule[] = [];
    const add = (p: { stats: PathStats }, targetMs: number, rate: number, startS: number, seconds: number, fire: (n: number) => void) => {
      p.stats.offered = rate;
      p.stats.seconds = seconds;
      paths.push({ stats: p.stats, targetMs });
      schedules.push(new Schedule(rate, startS, seconds, fire));
    };
    // Guests take turns: guest g's k-th interim carries k intervals' counters (each adds something new).
    const macRate = flood ? RATES.flood : RATES.mac;
    add(mac, TARGET_MS.radius, macRate, 0, SECONDS, (n) => {
      const g = (n * 7919) % GUESTS;
      mac.send((id) => macAuthRequest(id, CAPACITY_SECRET, apOf(g), guestMac(g)));
    });
    if (!flood) {
      add(acct, TARGET_MS.radius, RATES.acct, 0, SECONDS, (n) => {
        const g = n % GUESTS;
        const k = Math.floor(n / GUESTS) + (WARM ? 2 : 1);
        acct.send((id) => interimRequest(id, CAPACITY_SECRET, apOf(g), guestMac(g), `cap-${g}`, { time: k * INTERVAL, input: k * 150_000 + g, output: k * 900_000 + g }));
      });
      add(login, TARGET_MS.http, RATES.login, loginAt, LOGIN_SECONDS, (n) => {
        const c = i.clients[n % i.clients.length];
        const body = new URLSearchParams({ state: c.state, name: `Burst ${n}`, email: `burst${n}-${tag}@bench.example` }).toString();
        login.send("POST", "/portal/login/custom", { cookie: c.cookie, "content-type": "application/x-www-form-urlencoded", "user-agent": "Mozilla/5.0 (iPhone) Safari" }, body);
      });
      add(poll, TARGET_MS.http, RATES.poll, 0, SECONDS, () => poll.send("GET", `/portal/l/${i.slug}/captive-portal-api`, { accept: "application/captive+json" }));
      add(overview, TARGET_MS.http, RATES.overview, 0, SECONDS, () =>
        overview.send("GET", `/console/api/overview?location_id=0&from_date=${monthAgo}&to_date=${today}`, { cookie: i.cookie }),
      );
      add(api, TARGET_MS.http, RATES.api, 0, SECONDS, () =>
        api.send("GET", `/api/session-list?location_ids=${i.locationIds.slice(0, 10).join(",")}`, { identifier: i.identifier }),
      );
    }
    const pgWatch = dialect === "postgres" ? new PgWatch(appName) : undefined;
    await pgWatch?.start();
    if (WARM && !flood) {
      await warmSessions(i.acctPort, serviceCpu, pgWatch, (id, g) =>
        interimRequest(id, CAPACITY_SECRET, apOf(g), guestMac(g), `cap-${g}`, { time: INTERVAL, input: 150_000 + g, output: 900_000 + g }),
      );
      pgWatch?.rebase();
    }
    const bytesBefore = await dbBytes(dialect, file, schema);
    // What the service spends doing nothing asked (its workers' polls, housekeeping): taken off per operation.
    const idleFrom = serviceCpu();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleUsPerS = ((serviceCpu() - idleFrom) / IDLE_MS) * 1000;
    const cpuBefore = serviceCpu();
    const samples: Sample[] = [{ rssMb: serviceRss(), cpuUs: cpuBefore }];
    const sampler = setInterval(() => samples.push({ rssMb: serviceRss(), cpuUs: serviceCpu() }), 1000);
    const t0 = performance.now();
    const t0Wall = Date.now();
    for (const s of schedules) s.start(t0);
    await new Promise((r) => setTimeout(r, SECONDS * 1000 + GRACE_MS));
    clearInterval(sampler);
    for (const s of schedules) s.stop();
    const cpuUs = serviceCpu() - cpuBefore;
    const busyUs = Math.max(0, cpuUs - idleUsPerS * (SECONDS + GRACE_MS / 1000));
    await pgWatch?.stop();
    const bytesAfter = await dbBytes(dialect, file, schema);

    console.log("  path (open loop)");
    let allHeld = true;
    let answered = 0;
    for (const p of paths) {
      allHeld = printPath(p.stats, p.targetMs) && allHeld;
      answered += p.stats.answered;
    }
    if (!flood) {
      receiver.stats.offered = Number.NaN;
      receiver.stats.sent = receiver.stats.answered;
      printPath(receiver.stats, undefined);
      console.log(`  ${"".padEnd(30)} (latency: from the event to its delivery)`);
    }
    const rss = samples.map((s) => s.rssMb).filter(Number.isFinite);
    console.log(
      `  service: ${fmt((cpuUs / 1e6 / SECONDS) * 100, 0)}% of one core (idle: ${fmt(idleUsPerS / 1e4, 1)}%), ${fmt(busyUs / Math.max(1, answered))} us CPU per answered operation; ` +
        `RSS ${fmt(rss[0], 0)} MB at start, ${fmt(Math.max(...rss), 0)} MB max, ${fmt(rss[rss.length - 1], 0)} MB at end`,
    );
    const busy = eventLoopBusy(opts.eluFile, t0Wall);
    if (busy.length > 0) {
      const whose = SPLIT ? "HTTP instance's" : "service";
      console.log(`  ${whose} event loop busy by ${WINDOW_S} s from the start: ${busy.map((b) => fmt(b * 100, 0)).join(", ")} % (its one JavaScript thread: near 100 %, it is what every path waits for)`);
    }
    const radiusBusy = SPLIT ? eventLoopBusy(radiusFile(opts.eluFile), t0Wall) : [];
    if (radiusBusy.length > 0) console.log(`  RADIUS instance's event loop busy by ${WINDOW_S} s from the start: ${radiusBusy.map((b) => fmt(b * 100, 0)).join(", ")} %`);
    // Whether memory levels off under the load, or keeps growing: the RSS at each quarter of the
    // run, and its change over the second half.
    const at = (f: number) => rss[Math.min(rss.length - 1, Math.round(f * (rss.length - 1)))];
    console.log(`  RSS at each quarter: ${[0.25, 0.5, 0.75, 1].map((f) => fmt(at(f), 0)).join(", ")} MB; second half ${at(1) - at(0.5) >= 0 ? "+" : ""}${fmt(at(1) - at(0.5), 0)} MB`);
    const heap = heapByQuarter(opts.eluFile, t0Wall);
    if (heap.length > 0) console.log(`  V8 heap in use at each quarter${SPLIT ? " (HTTP instance)" : ""}: ${heap.map((h) => fmt(h, 0)).join(", ")} MB (the rest of RSS: memory not yet given back, buffers, native)`);
    const radiusHeap = SPLIT ? heapByQuarter(radiusFile(opts.eluFile), t0Wall) : [];
    if (radiusHeap.length > 0) console.log(`  V8 heap in use at each quarter (RADIUS instance): ${radiusHeap.map((h) => fmt(h, 0)).join(", ")} MB`);
    if (pgWatch) {
      const pgCpu = pgWatch.cpuUs();
      console.log(`  PostgreSQL backends: ${fmt((pgCpu / 1e6 / SECONDS) * 100, 0)}% of one core, ${fmt(pgCpu / Math.max(1, answered))} us CPU per answered operation`);
      const waits = [...pgWatch.waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
      console.log(`  PostgreSQL connections busy, per sample (${pgWatch.samples} samples): ${waits.map(([k, v]) => `${k} ${fmt(v / pgWatch.samples)}`).join(", ") || "none"}`);
    }
    const perDay = ((bytesAfter - bytesBefore) / SECONDS) * 86_400;
    console.log(`  database: ${fmt(bytesBefore / 1e6, 0)} MB before, ${fmt(bytesAfter / 1e6, 0)} MB after; growth at this load ${fmt(perDay / 1e9, 2)} GB per day`);
    printLog(opts.logFile);
    if (SPLIT) printLog(radiusFile(opts.logFile));
    if (flood) {
      const s = mac.stats;
      console.log(`  flood: ${fmt((100 * s.answered) / Math.max(1, s.sent), 0)}% answered (${fmt(s.answered / SECONDS, 0)}/s of ${RATES.flood}/s offered)`);
    } else console.log(`  ${allHeld ? "every path held its target" : "not every path held its target (see above)"}`);
  } finally {
    for (const p of opened) p.close();
    await target.stop();
    await receiver.close();
    for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    for (const f of [opts.logFile, opts.eluFile]) for (const g of [f, radiusFile(f)]) rmSync(g, { force: true });
  }
}

/** The target's samples of each second (from its eluFile): when, event-loop utilisation, V8 heap in use (MB). */
function targetSamples(file: string): { at: number; u: number; heapMb: number }[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((line) => line.split(" ").map(Number))
    .filter(([at, u]) => Number.isFinite(at) && Number.isFinite(u))
    .map(([at, u, heapMb]) => ({ at, u, heapMb }));
}

/** The V8 heap in use at each quarter of the run (MB). */
function heapByQuarter(file: string, t0Wall: number): number[] {
  const inRun = targetSamples(file).filter((s) => s.at >= t0Wall && s.at <= t0Wall + SECONDS * 1000 + 1000 && Number.isFinite(s.heapMb));
  if (inRun.length === 0) return [];
  return [0.25, 0.5, 0.75, 1].map((f) => inRun[Math.min(inRun.length - 1, Math.round(f * (inRun.length - 1)))].heapMb);
}

/** The service's event loop utilisation (its samples, once a second) averaged per window of the run. */
function eventLoopBusy(file: string, t0Wall: number): number[] {
  const sums: { total: number; n: number }[] = [];
  for (const { at, u } of targetSamples(file)) {
    // A sample covers the second before it.
    const w = Math.floor((at - 1000 - t0Wall) / (WINDOW_S * 1000));
    if (!Number.isFinite(u) || w < 0 || w >= Math.ceil(SECONDS / WINDOW_S)) continue;
    sums[w] ??= { total: 0, n: 0 };
    sums[w].total += u;
    sums[w].n++;
  }
  return Array.from(sums, (s) => (s ? s.total / s.n : Number.NaN));
}

/** The service's warnings and errors during the run, counted by message. */
function printLog(file: string): void {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return;
  }
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const l = JSON.parse(line) as { msg?: string; err?: { message?: string } };
      const key = `${l.msg ?? ""}${l.err?.message ? ` (${l.err.message})` : ""}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  for (const [k, n] of [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`  service log: ${n} x ${k}`);
}

export default async function run(): Promise<void> {
  console.log(
    `capacity: open-loop load for ${SECONDS} s per run; offered rates: accounting ${fmt(RATES.acct, 0)}/s (${GUESTS.toLocaleString("en")} guests / ${INTERVAL} s), ` +
      `MAC re-auth ${RATES.mac}/s, logins ${RATES.login}/s for ${LOGIN_SECONDS} s, RFC 8908 polls ${RATES.poll}/s, console overview ${RATES.overview}/s, ` +
      `API session-list ${RATES.api}/s; flood ${RATES.flood}/s MAC re-auths alone`,
  );
  for (const dialect of DIALECTS) for (const mode of MODES) await runOne(dialect, mode);
}
