/** autocannon with the figures every benchmark prints. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export interface LoadResult {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The target's CPU time (user + system) per answered request, in µs, when its process was given (Linux). */
  cpuUs?: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux unless getconf says otherwise). */
let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU time a process has used so far (user + system), in µs; undefined where /proc does not tell. */
export function cpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / clockTicks()) * 1e6;
  } catch {
    return undefined;
  }
}

/** What a load is unless its options say otherwise. */
const LOAD_DEFAULTS = { connections: 50, duration: 10 };

/**
 * One load of `opts.url`. With `pid` (the target's process), also what each answered request cost
 * the target in CPU: a figure that, unlike req/s, does not depend on how much of the two cores the
 * load generator left it. `warmupSeconds`: the same load first for that long, not measured, so that
 * the figures are of the target in its steady state (its code compiled by the JIT, its caches
 * filled), as a server runs after its first seconds; a baseline is warmed the same way.
 */
export async function load(label: string, opts: autocannon.Options, pid?: number, warmupSeconds = 0): Promise<LoadResult> {
  if (warmupSeconds > 0) await autocannon({ ...LOAD_DEFAULTS, ...opts, duration: warmupSeconds });
  const before = pid === undefined ? undefined : cpuMicros(pid);
  const r = await autocannon({ ...LOAD_DEFAULTS, ...opts });
  const after = pid === undefined ? undefined : cpuMicros(pid);
  const res: LoadResult = {
    label,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
  if (before !== undefined && after !== undefined && r.requests.total > 0) res.cpuUs = (after - before) / r.requests.total;
  return res;
}

export function printRow(r: LoadResult, baseline?: LoadResult): void {
  const ratio = baseline ? `  ratio ${(r.rps / baseline.rps).toFixed(2)}` : "";
  // CPU per request against the baseline's too: unlike req/s, it holds on a loaded machine.
  const cpuRatio = r.cpuUs !== undefined && baseline?.cpuUs ? ` (${(r.cpuUs / baseline.cpuUs).toFixed(2)}x)` : "";
  const cpu = r.cpuUs === undefined ? "" : `  cpu ${r.cpuUs.toFixed(1)} us/req${cpuRatio}`;
  const bad = r.errors || r.non2xx ? `  (errors ${r.errors}, non-2xx ${r.non2xx})` : "";
  console.log(`${r.label.padEnd(44)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${ratio}${cpu}${bad}`);
}
