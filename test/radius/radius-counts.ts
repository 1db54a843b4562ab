/**
 * What the RADIUS server counted (guestwifi_radius_requests_total): every datagram it reads is
 * counted once, as a drop, an error (no answer either), or with its answer's outcome. Tests prove a
 * request went unanswered by its count, not by waiting for an answer that does not come.
 */
import type { Metrics } from "../../src/metrics.js";
import { type RadclientResult, radclient } from "./radclient.js";

export type RadiusType = "access" | "accounting";
export interface Tally {
  drop: number;
  error: number;
  /** Every other outcome: an answer (accept, reject, accounted, resent). */
  other: number;
}
/** Reads the counts of one type so far. */
export type RadiusCounts = (type: RadiusType) => Promise<Tally>;

function add(out: Tally, result: string, n: number): void {
  if (result === "drop" || result === "error") out[result] += n;
  else out.other += n;
}

/** The counts in an in-process server's metrics. */
export function countsOf(metrics: Metrics): RadiusCounts {
  return async (type) => {
    const { values } = await metrics.registry.getSingleMetric("guestwifi_radius_requests_total")!.get();
    const out = { drop: 0, error: 0, other: 0 };
    for (const v of values) if (v.labels.type === type) add(out, String(v.labels.result), v.value);
    return out;
  };
}

/** The counts a running service's /metrics shows (scraped from loopback). */
export function countsAt(metricsUrl: string, headers: Record<string, string> = {}): RadiusCounts {
  return async (type) => {
    const res = await fetch(metricsUrl, { headers, signal: AbortSignal.timeout(15_000) });
    if (res.status !== 200) throw new Error(`${metricsUrl}: ${res.status}`);
    const out = { drop: 0, error: 0, other: 0 };
    for (const line of (await res.text()).split("\n")) {
      const m = /^guestwifi_radius_requests_total\{(.*)\} (\S+)$/.exec(line);
      if (m === null) continue;
      if (!m[1].includes(`type="${type}"`)) continue;
      add(out, /result="([^"]*)"/.exec(m[1])?.[1] ?? "", Number(m[2]));
    }
    return out;
  };
}

const total = (t: Tally) => t.drop + t.error + t.other;

/** Polls until `n` more requests of `type` than `was` are counted; the new tally (as it is, after `ms`). */
export async function radiusCounted(counts: RadiusCounts, type: RadiusType, was: Tally, n: number, ms = 10_000): Promise<Tally> {
  const deadline = Date.now() + ms;
  for (;;) {
    const now = await counts(type);
    if (total(now) >= total(was) + n || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The counts moved from `was` to `now`, outcome by outcome. */
export const moved = (was: Tally, now: Tally) => ({ drop: now.drop - was.drop, error: now.error - was.error, other: now.other - was.other });

/** Resolves once a drop more than `was` is counted (RadSec: a refused connection); never otherwise. */
export async function dropCounted(counts: RadiusCounts, was: Tally, ms = 10_000): Promise<true> {
  const deadline = Date.now() + ms;
  while ((await counts("access")).drop <= was.drop) {
    if (Date.now() > deadline) return new Promise<never>(() => {});
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/**
 * One request through radclient, and how the server counted it. A request counted as dropped stops
 * radclient at once (no answer is coming); any other is answered (or not) as radclient sees it.
 */
export async function radclientCounted(
  counts: RadiusCounts,
  port: number,
  kind: "auth" | "acct",
  secret: string,
  lines: string[],
): Promise<RadclientResult & { counted: Tally }> {
  const type = kind === "auth" ? "access" : "accounting";
  const was = await counts(type);
  const counting = radiusCounted(counts, type, was, 1);
  const dropped = counting.then((now) => (now.drop > was.drop ? true : new Promise<never>(() => {})));
  const r = await radclient(port, kind, secret, lines, 10, dropped);
  return { ...r, counted: moved(was, await counting) };
}
