/**
 * Issue 22 benchmark: how long the service takes to start and to restart, as an operator runs it
 * (`node bin/guestwifi.js serve`, the compiled JavaScript, HTTP and RADIUS on loopback), beside a
 * bare Fastify process with one route started the same way. Each round starts on an empty SQLite
 * database (the schema and the first account are created), then stops (SIGTERM) and starts again on
 * it: the restart is from the signal to the new process's first 200 on /healthz. CPU is the started
 * process's own (user + system) when it first answered. Medians of BENCH_ROUNDS rounds (default 5).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMicros } from "./support/load.js";
import { freePort as freeUdpPort } from "./support/radius-peers.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROOT = join(import.meta.dirname, "..");

interface Started {
  child: ChildProcess;
  ms: number;
  cpuMs: number;
}

async function startAndWait(args: string[], env: Record<string, string>, port: number): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: String(port), ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited with ${child.exitCode}: ${stderr}`);
    if (performance.now() - t0 > 60_000) {
      child.kill("SIGKILL");
      throw new Error(`${args.join(" ")} did not answer /healthz within 60 s`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status === 200, () => false);
    if (ok) return { child, ms: performance.now() - t0, cpuMs: (cpuMicros(child.pid ?? 0) ?? Number.NaN) / 1000 };
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function stop(child: ChildProcess): Promise<number> {
  const t0 = performance.now();
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
  return performance.now() - t0;
}

interface Round {
  first: number;
  firstCpu: number;
  stop: number;
  restart: number;
  restartCpu: number;
}

async function rounds(label: string, args: string[], env: () => Promise<{ env: Record<string, string>; cleanup: () => void }>): Promise<Round[]> {
  const out: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const { env: e, cleanup } = await env();
    try {
      const port = await freeTcpPort();
      const first = await startAndWait(args, e, port);
      const t0 = performance.now();
      const stopped = await stop(first.child);
      const second = await startAndWait(args, e, port);
      const restart = performance.now() - t0;
      await stop(second.child);
      out.push({ first: first.ms, firstCpu: first.cpuMs, stop: stopped, restart, restartCpu: second.cpuMs });
    } finally {
      cleanup();
    }
  }
  console.log(`  ${label}: ${ROUNDS} rounds done`);
  return out;
}

async function freeTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function run(): Promise<void> {
  // The service runs the build npm ci made; bring it up to date first so the figures are of this tree.
  const build = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs"), "--if-stale"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("build failed");
  console.log(`start, stop and restart to a 200 on /healthz, median of ${ROUNDS} rounds (empty SQLite database)`);
  const bare = await rounds("bare Fastify", [join(ROOT, "bench/support/bare-start.mjs")], async () => ({ env: {}, cleanup: () => {} }));
  const ours = await rounds("guestwifi serve", [join(ROOT, "bin/guestwifi.js"), "serve"], async () => {
    const file = join(tmpdir(), `guestwifi-bench-start-${randomBytes(4).toString("hex")}.db`);
    const [auth, acct] = [await freeUdpPort(), await freeUdpPort()];
    return {
      env: { DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: "warn", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: String(auth), RADIUS_ACCT_PORT: String(acct) },
      cleanup: () => {
        for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
      },
    };
  });
  const row = (name: string, pick: (r: Round) => number, unit = "ms") => {
    const b = median(bare.map(pick));
    const o = median(ours.map(pick));
    console.log(`  ${name.padEnd(34)} ${`${o.toFixed(0)} ${unit}`.padStart(9)}  bare Fastify ${`${b.toFixed(0)} ${unit}`.padStart(9)}  ratio ${(o / b).toFixed(1)}x`);
  };
  row("first start (empty database)", (r) => r.first);
  row("  CPU of that start", (r) => r.firstCpu);
  row("stop (SIGTERM to exit)", (r) => r.stop);
  row("restart (SIGTERM to next 200)", (r) => r.restart);
  row("  CPU of the restarted process", (r) => r.restartCpu);
  const worst = Math.max(...ours.map((r) => r.restart));
  console.log(`  slowest restart of guestwifi serve: ${worst.toFixed(0)} ms (goal: at most 1500 ms on an idle machine)`);
}
