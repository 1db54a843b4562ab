/**
 * Issue 2 benchmark: get-location with 10 ids, authenticated, 50 connections for 10 s, on SQLite and
 * PostgreSQL, against a bare Fastify route serving the same JSON from memory, in interleaved rounds
 * (BENCH_API_ROUNDS, 3); and location writes.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchLocationParams } from "./support/bench-location.js";
import { type LoadResult, load, printRow } from "./support/load.js";
import { startTarget } from "./support/target.js";

const PG_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const TARGET = "bench/support/api-target.ts";
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/**
 * Seconds of the same load before each get-location measurement, the baseline's included: the
 * figures are of warm processes. Cold, the app's first seconds also paid for compiling its larger
 * code (about 2 µs per request over a 10 s run), which a server pays once.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
/** Interleaved rounds of the get-location loads (medians printed). */
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 3);

interface AppInfo {
  port: number;
  identifier: string;
  ids: number[];
}

function locationBody(identifier: string): string {
  return new URLSearchParams({ identifier, ...benchLocationParams("Bench Write", "2 Main Street") }).toString();
}

export default async function run(): Promise<void> {
  const file = join(tmpdir(), `guestwifi-bench-${randomBytes(4).toString("hex")}.db`);
  const sqlite = await startTarget<AppInfo>(TARGET, ["app", `sqlite:${file}`]);
  const pg = await startTarget<AppInfo>(TARGET, ["app", PG_URL, `bench_${randomBytes(4).toString("hex")}`]).catch(async (err) => {
    await sqlite.stop();
    throw err;
  });
  try {
    const path = (i: AppInfo) => `/api/get-location?location_ids=${i.ids.join(",")}`;
    const sample = await fetch(`http://127.0.0.1:${sqlite.info.port}${path(sqlite.info)}`, {
      headers: { identifier: sqlite.info.identifier },
    });
    const json = await sample.text();
    if (sample.status !== 200) throw new Error(`get-location answered ${sample.status}: ${json}`);
    const bare = await startTarget<{ port: number }>(TARGET, ["bare", json]);
    console.log(`get-location, 10 ids, 50 connections, ${DURATION} s each after ${WARMUP} s of warm-up (response ${json.length} bytes)`);
    // ROUNDS interleaved rounds (bare, SQLite, PostgreSQL), medians printed: on the shared two-core
    // machine one 10-s load's CPU per request swung from 65 to 95 us between two runs of the same code.
    const rounds: Record<"bare" | "SQLite" | "PostgreSQL", LoadResult[]> = { bare: [], SQLite: [], PostgreSQL: [] };
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const warm = i === 0 ? WARMUP : 0;
        rounds.bare.push(await load("bare Fastify route, same JSON from memory", { url: `http://127.0.0.1:${bare.info.port}/api/get-location`, duration: DURATION }, bare.pid, warm));
        for (const [name, t] of [
          ["SQLite", sqlite],
          ["PostgreSQL", pg],
        ] as const) {
          const url = `http://127.0.0.1:${t.info.port}${path(t.info)}`;
          rounds[name].push(await load(`get-location on ${name}`, { url, headers: { identifier: t.info.identifier }, duration: DURATION }, t.pid, warm));
        }
      }
    } finally {
      await bare.stop();
    }
    const median = (rs: LoadResult[]): LoadResult => [...rs].sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)];
    const cpu = (r: LoadResult) => r.cpuUs ?? Number.NaN;
    const baseline = median(rounds.bare);
    console.log(`median of ${ROUNDS} interleaved rounds (each round's req/s and CPU per request in brackets):`);
    const each = (rs: LoadResult[]) => `[${rs.map((r) => r.rps).join(", ")}; cpu ${rs.map((r) => cpu(r).toFixed(0)).join(", ")} us]`;
    printRow(baseline);
    console.log(`${"".padEnd(44)} ${each(rounds.bare)}`);
    for (const name of ["SQLite", "PostgreSQL"] as const) {
      printRow(median(rounds[name]), baseline);
      // The CPU ratio of each round to that round's bare route, and their median: what issue 23 compares.
      const ratios = rounds[name].map((r, i) => cpu(r) / cpu(rounds.bare[i])).sort((a, b) => a - b);
      console.log(`${"".padEnd(44)} ${each(rounds[name])} cpu to the same round's bare route ${ratios.map((x) => `${x.toFixed(2)}x`).join(", ")}, median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x`);
    }
    console.log(`\ncreate-or-update-location (writes), 50 connections, ${DURATION} s each`);
    for (const [name, t] of [
      ["SQLite", sqlite],
      ["PostgreSQL", pg],
    ] as const) {
      const r = await load(`create location on ${name}`, {
        url: `http://127.0.0.1:${t.info.port}/api/create-or-update-location`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: locationBody(t.info.identifier),
        duration: DURATION,
      }, t.pid);
      printRow(r);
    }
  } finally {
    await sqlite.stop();
    await pg.stop();
    for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
  }
}
