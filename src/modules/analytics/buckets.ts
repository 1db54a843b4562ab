/**
 * Categories of an analytics series: every day of the range (DAY), or one bucket per ISO week
 * (Monday start) or calendar month, each labelled by its first day inside the range.
 */
import { daysBetween } from "../guests/local-day.js";
import { DAY_MS } from "../../durations.js";

export const AGGREGATIONS = ["DAY", "WEEK", "MONTH"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export interface Buckets {
  /** Labels, in order: one per bucket. */
  categories: string[];
  /** Day (`YYYY-MM-DD`) -> index of its bucket, for every day of the range. */
  indexOfDay: Map<string, number>;
}

/** The day that starts the bucket holding `day` (before clamping to the range). */
function bucketStart(day: string, agg: Aggregation): string {
  if (agg === "DAY") return day;
  if (agg === "MONTH") return `${day.slice(0, 8)}01`;
  const t = Date.parse(`${day}T00:00:00Z`);
  const sinceMonday = (new Date(t).getUTCDay() + 6) % 7;
  return new Date(t - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

export function buildBuckets(from: string, to: string, agg: Aggregation): Buckets {
  const categories: string[] = [];
  const indexOfDay = new Map<string, number>();
  let currentStart = "";
  for (const day of daysBetween(from, to)) {
    const start = bucketStart(day, agg);
    if (start !== currentStart) {
      currentStart = start;
      // The first bucket may begin before from_date: it is labelled by its first day inside the range.
      categories.push(day);
    }
    indexOfDay.set(day, categories.length - 1);
  }
  return { categories, indexOfDay };
}

/**
 * Sums per-day counts (`width` numbers a day) into `width` series of one number per bucket, zeros
 * included. Days outside the range are ignored.
 */
export function sumIntoBuckets(buckets: Buckets, perDay: Map<string, readonly number[]>, width: number): number[][] {
  const series = Array.from({ length: width }, () => new Array<number>(buckets.categories.length).fill(0));
  for (const [day, counts] of perDay) {
    const b = buckets.indexOfDay.get(day);
    if (b === undefined) continue;
    for (let i = 0; i < width; i++) series[i][b] += counts[i];
  }
  return series;
}
