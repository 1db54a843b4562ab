/** autocannon with the figures every benchmark prints. */
import autocannon from "autocannon";
import type { Target } from "./target.js";

export interface LoadResult {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(label: string, opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 50, duration: 10, ...opts });
  const res: LoadResult = {
    label,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
  return res;
}

export function printRow(r: LoadResult, baseline?: LoadResult): void {
  const ratio = baseline ? `  ratio ${(r.rps / baseline.rps).toFixed(2)}` : "";
  const bad = r.errors || r.non2xx ? `  (errors ${r.errors}, non-2xx ${r.non2xx})` : "";
  console.log(`${r.label.padEnd(44)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${ratio}${bad}`);
}

/** Loads a bare baseline target on `path`, stops it (so it takes no CPU from what follows), prints the row. */
export async function loadBaseline(label: string, bare: Target<{ port: number }>, path: string, opts: Omit<autocannon.Options, "url"> = {}): Promise<LoadResult> {
  try {
    const r = await load(label, { ...opts, url: `http://127.0.0.1:${bare.info.port}${path}` });
    printRow(r);
    return r;
  } finally {
    await bare.stop();
  }
}
