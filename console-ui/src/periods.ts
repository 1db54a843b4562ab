/**
 * How the overview's days are grouped into the buckets its charts show, and how the previous period
 * lines up with the current one. Pure functions (no DOM), so the rules are easy to read in one place.
 */

export type Grain = "day" | "week" | "month";

/** Days up to 62 per day, up to 184 per week (Monday to Sunday), longer ranges per month: at 390 px a year stays readable. */
export function grainOf(days: number): Grain {
  if (days <= 62) return "day";
  if (days <= 184) return "week";
  return "month";
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The bucket a day (YYYY-MM-DD) falls in, named as the axis shows it. */
function bucketOf(day: string, grain: Grain): string {
  if (grain === "day") return day;
  if (grain === "month") return `${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return `Week of ${d.toISOString().slice(0, 10)}`;
}

export interface Buckets {
  labels: string[];
  /** For each day of the range, the index of its bucket. */
  index: number[];
}

/** The buckets of a range's days, in order; a week or month cut by the range's ends is a partial bucket. */
export function bucketsOf(days: string[], grain: Grain): Buckets {
  const labels: string[] = [];
  const index: number[] = [];
  for (const day of days) {
    const b = bucketOf(day, grain);
    if (labels[labels.length - 1] !== b) labels.push(b);
    index.push(labels.length - 1);
  }
  return { labels, index };
}

/**
 * Sums per-day numbers into the buckets. The previous period's days are summed by position (its first
 * day into the current range's first day's bucket, and so on), so each bar has its counterpart beside it.
 */
export function sumInto(b: Buckets, perDay: number[]): number[] {
  const out = new Array<number>(b.labels.length).fill(0);
  perDay.forEach((n, i) => {
    const at = b.index[i];
    if (at !== undefined) out[at] += n;
  });
  return out;
}

/** The range of the same length just before from..to (inclusive dates). */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const day = 86_400_000;
  const f = Date.parse(`${from}T00:00:00Z`);
  const t = Date.parse(`${to}T00:00:00Z`);
  const len = Math.round((t - f) / day) + 1;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(f - len * day), to: iso(f - day) };
}

/** Axis ticks for byte counts at round figures of one unit (10/20/30 GB, not 9.3/19/28 GB). */
export function byteTicks(max: number): { step: number; max: number; unit: number; name: string } {
  const names = ["B", "KB", "MB", "GB", "TB", "PB"];
  let unit = 1;
  let i = 0;
  while (max >= unit * 1024 && i < names.length - 1) {
    unit *= 1024;
    i++;
  }
  const inUnit = Math.max(max / unit, 1);
  const raw = inUnit / 5;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  const step = i === 0 ? Math.max(1, Math.round(nice)) : nice;
  return { step: step * unit, max: Math.ceil(inUnit / step) * step * unit, unit, name: names[i] ?? "B" };
}

/** A tick's label in byteTicks' unit, without trailing zeros ("2.5 GB", "10 GB"). */
export function byteTickLabel(value: number, t: { unit: number; name: string }): string {
  return `${Number((value / t.unit).toFixed(2))} ${t.name}`;
}
