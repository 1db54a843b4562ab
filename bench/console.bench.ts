/**
 * Issue 10 benchmark: the console's server side on a database of 1 million logins (20 locations, a
 * year, 200,000 guests), through the real HTTP app signed in with a console session, on SQLite and
 * PostgreSQL:
 * - the overview over 365 days for the whole account and for one location (target: p99 under 50 ms);
 * - the guest search over the 200,000 guests: first page, a later page, by name, e-mail and MAC
 *   (target: p99 under 50 ms);
 * - the CSV export of every location over the year, in rows per second.
 * Baseline, in the same run: a bare Fastify route serving the same JSON bytes from memory. Latency is
 * one request at a time over a kept-alive loopback connection (client-side, so it includes HTTP).
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnalyticsData } from "./support/analytics-data.js";
import { type LatencyResult, measureLatency } from "./support/latency.js";
import { type Target, withTarget } from "./support/target.js";

const PG_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const LOGINS = Number(process.env.BENCH_ANALYTICS_LOGINS ?? 1_000_000);
const TARGET = "bench/support/analytics-target.ts";
const SEQUENTIAL = Number(process.env.BENCH_CONSOLE_REQUESTS ?? 500);
const TARGET_P99_MS = 50;

type AppInfo = AnalyticsData & { port: number; identifier: string; email: string; password: string; buildSeconds: number };

interface Query {
  name: string;
  path: (i: AppInfo, s: Session) => string;
}

interface Session {
  cookie: string;
  olderPage: number;
}

const yearOf = (i: AppInfo) => {
  const from = new Date(Date.parse(`${i.lastDay}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);
  return `from_date=${from}&to_date=${i.lastDay}`;
};

const QUERIES: Query[] = [
  { name: "overview, 365 days, 20 locations", path: (i) => `/console/api/overview?location_id=0&${yearOf(i)}` },
  { name: "overview, 365 days, 1 location", path: (i) => `/console/api/overview?location_id=${i.locationIds[3]}&${yearOf(i)}` },
  { name: "guests, first page", path: () => "/console/api/guests" },
  { name: "guests, a page 100,000 deep", path: (_i, s) => `/console/api/guests?before_id=${s.olderPage}` },
  { name: "guests, search by name", path: () => "/console/api/guests?q=number123456" },
  { name: "guests, search by e-mail", path: () => "/console/api/guests?q=guest77777%40example.com" },
  { name: "guests, search by MAC", path: () => "/console/api/guests?q=02-00-01-86-9F-00" },
  { name: "guests, search matching nobody", path: () => "/console/api/guests?q=no-such-guest" },
];

const ms = (n: number) => n.toFixed(2).padStart(7);

async function signIn(base: string, i: AppInfo): Promise<string> {
  const res = await fetch(`${base}/console/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: i.email, password: i.password }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return String(res.headers.get("set-cookie")).split(";")[0];
}

async function exportRate(base: string, i: AppInfo, cookie: string): Promise<{ rows: number; seconds: number }> {
  const url = `${base}/api/social-user-export?format=csv&location_ids=${i.locationIds.join(",")}&${yearOf(i)}`;
  const start = process.hrtime.bigint();
  const res = await fetch(url, { headers: { cookie } });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
  let lines = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const b of value) if (b === 10) lines++;
  }
  return { rows: lines - 1, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

/** Building a million logins takes minutes on a busy machine. */
const withAppTarget = <R>(args: string[], fn: (t: Target<AppInfo>) => Promise<R>) => withTarget<AppInfo, R>(TARGET, args, 20 * 60_000, fn);

export default async function run(): Promise<void> {
  const file = join(tmpdir(), `guestwifi-console-bench-${randomBytes(4).toString("hex")}.db`);
  const schema = `bench_console_${randomBytes(4).toString("hex")}`;
  console.log(
    `Console server side on ${LOGINS.toLocaleString("en")} logins at 20 locations over a year; one request at a time ` +
      `(${SEQUENTIAL} after warm-up), signed in with a console session. Target: p99 under ${TARGET_P99_MS} ms.`,
  );
  const baseline = new Map<string, LatencyResult>();
  try {
    for (const [dialect, args] of [
      ["SQLite", ["app", `sqlite:${file}`, "", String(LOGINS)]],
      ["PostgreSQL", ["app", PG_URL, schema, String(LOGINS)]],
    ] as const) {
      await withAppTarget([...args], async (t) => {
        const i = t.info;
        const base = `http://127.0.0.1:${i.port}`;
        console.log(`\n${dialect}: ${i.logins.toLocaleString("en")} logins, ${i.guests.toLocaleString("en")} guests, built in ${i.buildSeconds.toFixed(0)} s`);
        const cookie = await signIn(base, i);
        const headers = { cookie };
        // A page 100,000 guests deep: the keyset the "Older" button would reach after 2,000 pages.
        const session: Session = { cookie, olderPage: i.guests - 100_000 };
        const bodies: unknown[] = [];
        for (const q of QUERIES) {
          const start = process.hrtime.bigint();
          const res = await fetch(base + q.path(i, session), { headers });
          const text = await res.text();
          const first = Number(process.hrtime.bigint() - start) / 1e6;
          if (res.status !== 200) throw new Error(`${q.name} answered ${res.status}: ${text}`);
          bodies.push(JSON.parse(text));
          console.log(`  first request, ${q.name.padEnd(36)} ${ms(first)} ms, ${text.length.toLocaleString("en")} bytes`);
        }
        if (baseline.size === 0) {
          const routes = Object.fromEntries(bodies.map((b, n) => [`/bare/${n}`, b]));
          await withAppTarget(["bare", JSON.stringify(routes)], async (bare) => {
            for (const n of QUERIES.keys()) baseline.set(QUERIES[n].name, await measureLatency(`http://127.0.0.1:${bare.info.port}/bare/${n}`, {}, SEQUENTIAL, 50));
          });
        }
        for (const q of QUERIES) {
          const r = await measureLatency(base + q.path(i, session), headers, SEQUENTIAL, 50);
          const b = baseline.get(q.name)!;
          const flag = r.p99 > TARGET_P99_MS ? `  ^ above the ${TARGET_P99_MS} ms target` : "";
          console.log(
            `${q.name.padEnd(38)} p50 ${ms(r.p50)} ms  p99 ${ms(r.p99)} ms   bare p50 ${ms(b.p50)} ms  p99 ${ms(b.p99)} ms  (x${(r.p50 / b.p50).toFixed(1)} / x${(r.p99 / b.p99).toFixed(1)})${flag}`,
          );
        }
        const ex = await exportRate(base, i, cookie);
        console.log(`CSV export, 20 locations, 365 days: ${ex.rows.toLocaleString("en")} rows in ${ex.seconds.toFixed(2)} s = ${Math.round(ex.rows / ex.seconds).toLocaleString("en")} rows/s`);
      });
    }
  } finally {
    for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
  }
}
