/**
 * Issue 3 benchmark: get-social-logins and get-visits over 60 days on a database holding 1 million
 * logins (20 locations, a year), through the real HTTP app, on SQLite and on PostgreSQL; and in the
 * same run a bare Fastify route serving the same JSON from memory. Latency is measured one request at
 * a time over a kept-alive loopback connection (p50/p99 to the microsecond), then under load with
 * autocannon. Target: p99 under 20 ms on SQLite. The data is dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnalyticsData } from "./support/analytics-data.js";
import { type LatencyResult, measureLatency } from "./support/latency.js";
import { load } from "./support/load.js";
import { type Target, withTarget } from "./support/target.js";

const PG_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const LOGINS = Number(process.env.BENCH_ANALYTICS_LOGINS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const TARGET = "bench/support/analytics-target.ts";
const SEQUENTIAL = 2000;
const TARGET_P99_MS = 20;

type AppInfo = AnalyticsData & { port: number; identifier: string; buildSeconds: number };

interface Query {
  name: string;
  path: (i: AppInfo) => string;
}

const range = (i: AppInfo) => {
  const to = i.lastDay;
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 60 * 86_400_000).toISOString().slice(0, 10);
  return `from_date=${from}&to_date=${to}`;
};

const QUERIES: Query[] = [
  { name: "get-social-logins, 1 location", path: (i) => `/api/get-social-logins?location_id=${i.locationIds[0]}&${range(i)}` },
  { name: "get-visits, 1 location", path: (i) => `/api/get-visits?location_id=${i.locationIds[0]}&${range(i)}` },
  { name: "get-social-logins, 20 locations", path: (i) => `/api/get-social-logins?location_id=${i.locationIds.join(",")}&${range(i)}` },
  { name: "get-visits, 20 locations", path: (i) => `/api/get-visits?location_id=${i.locationIds.join(",")}&${range(i)}` },
  { name: "get-social-logins, 1 location, agg=WEEK", path: (i) => `/api/get-social-logins?location_id=${i.locationIds[0]}&${range(i)}&agg=WEEK` },
];

const ms = (n: number) => n.toFixed(2).padStart(7);

function row(label: string, cold: number | undefined, seq: LatencyResult, loaded: { rps: number; p99: number }, bare?: { seq: LatencyResult }): void {
  const ratio = bare ? `  x${(seq.p50 / bare.seq.p50).toFixed(1)} / x${(seq.p99 / bare.seq.p99).toFixed(1)} of bare` : "";
  const first = cold === undefined ? "      -   " : `${ms(cold)} ms`;
  console.log(
    `${label.padEnd(48)} first ${first}  p50 ${ms(seq.p50)} ms  p99 ${ms(seq.p99)} ms${ratio.padEnd(26)}  | ${String(loaded.rps).padStart(6)} req/s, p99 ${loaded.p99} ms`,
  );
}

/** The first request of each query on a freshly started app (cold caches), and its answer. */
async function firstRequests(base: string, i: AppInfo, headers: Record<string, string>): Promise<{ cold: number[]; bodies: unknown[] }> {
  const cold: number[] = [];
  const bodies: unknown[] = [];
  for (const q of QUERIES) {
    const start = process.hrtime.bigint();
    const res = await fetch(base + q.path(i), { headers });
    const text = await res.text();
    cold.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (res.status !== 200) throw new Error(`${q.name} answered ${res.status}: ${text}`);
    bodies.push(JSON.parse(text));
  }
  return { cold, bodies };
}

async function measure(url: string, headers: Record<string, string>): Promise<{ seq: LatencyResult; loaded: { rps: number; p99: number } }> {
  const seq = await measureLatency(url, headers, SEQUENTIAL);
  const r = await load(url, { url, headers, connections: 10, duration: DURATION });
  if (r.errors || r.non2xx) throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx answers under load`);
  return { seq, loaded: { rps: r.rps, p99: r.p99 } };
}

/** Building a million logins takes minutes on a busy machine. */
const withAppTarget = <R>(args: string[], fn: (t: Target<AppInfo>) => Promise<R>) => withTarget<AppInfo, R>(TARGET, args, 20 * 60_000, fn);

export default async function run(): Promise<void> {
  const file = join(tmpdir(), `guestwifi-analytics-bench-${randomBytes(4).toString("hex")}.db`);
  const schema = `bench_analytics_${randomBytes(4).toString("hex")}`;
  console.log(
    `get-social-logins / get-visits over 60 days, ${LOGINS.toLocaleString("en")} logins at 20 locations over a year.\n` +
      `Left: the first request on the fresh app (cold caches), then one request at a time (${SEQUENTIAL} after warm-up);\n` +
      `right: 10 connections for ${DURATION} s ` +
      "(autocannon, whole ms). The data ends today, so each range holds days still open (read every time).",
  );
  const baseline = new Map<string, { seq: LatencyResult; loaded: { rps: number; p99: number } }>();
  try {
    for (const [dialect, args] of [
      ["SQLite", ["app", `sqlite:${file}`, "", String(LOGINS)]],
      ["PostgreSQL", ["app", PG_URL, schema, String(LOGINS)]],
    ] as const) {
      await withAppTarget([...args], async (t) => {
        const i = t.info;
        const base = `http://127.0.0.1:${i.port}`;
        const headers = { identifier: i.identifier };
        console.log(`\n${dialect}: database of ${i.logins.toLocaleString("en")} logins, ${i.guests.toLocaleString("en")} guests built in ${i.buildSeconds.toFixed(0)} s`);
        const { cold, bodies } = await firstRequests(base, i, headers);
        if (baseline.size === 0) {
          // The bare routes answer exactly the bytes the app answered, from memory.
          const routes = Object.fromEntries(bodies.map((b, n) => [`/bare/${n}`, b]));
          await withAppTarget(["bare", JSON.stringify(routes)], async (bare) => {
            for (const n of QUERIES.keys()) baseline.set(QUERIES[n].name, await measure(`http://127.0.0.1:${bare.info.port}/bare/${n}`, {}));
          });
          for (const q of QUERIES) row(`bare route: ${q.name}`, undefined, baseline.get(q.name)!.seq, baseline.get(q.name)!.loaded);
        }
        for (const [n, q] of QUERIES.entries()) {
          const r = await measure(base + q.path(i), headers);
          row(q.name, cold[n], r.seq, r.loaded, baseline.get(q.name));
          if (dialect === "SQLite" && r.seq.p99 > TARGET_P99_MS) console.log(`  ^ above the ${TARGET_P99_MS} ms p99 target`);
        }
      });
    }
  } finally {
    for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
  }
}
