/** Latency of one request at a time over a kept-alive loopback connection, to the microsecond. */
import http from "node:http";

export interface LatencyResult {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

function once(agent: http.Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`${url.pathname} answered ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - start) / 1e6);
      });
    });
    req.on("error", reject);
  });
}

/** `count` sequential requests after `warmup` unmeasured ones; milliseconds. */
export async function measureLatency(url: string, headers: Record<string, string>, count = 2000, warmup = 200): Promise<LatencyResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const u = new URL(url);
  try {
    for (let i = 0; i < warmup; i++) await once(agent, u, headers);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await once(agent, u, headers));
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    return { p50: at(0.5), p99: at(0.99), max: times[times.length - 1], count };
  } finally {
    agent.destroy();
  }
}
