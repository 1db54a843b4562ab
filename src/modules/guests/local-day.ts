/** Calendar days in a location's own time zone (time is UTC everywhere else). */
import { DAY_MS } from "../../durations.js";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `YYYY-MM-DD` of the instant `at` as seen in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  return formatter(timeZone).format(at);
}

const hourFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Time zones change their offset at whole minutes of UTC (tzdata's rules of this century; mostly
 * at whole quarter hours, Antarctica/Casey at 0:01): within one minute of UTC every zone shows one
 * local day and hour. So the last answer per zone is kept for its minute: every login at a zone's
 * venues asks, and formatting a date in a zone costs more than the rest of the login's arithmetic.
 */
const MINUTE_MS = 60_000;
const MINUTES_FROM_MS = Date.UTC(2000, 0, 1);
const lastMinute = new Map<string, { minute: number; day: string; hour: number }>();

/** The local day of `at` in `timeZone` (as `localDay`) and the wall-clock hour, 0-23, on it. */
export function localDayHour(at: Date, timeZone: string): { day: string; hour: number } {
  const t = at.getTime();
  const minute = Math.floor(t / MINUTE_MS);
  const last = lastMinute.get(timeZone);
  if (last && last.minute === minute) return { day: last.day, hour: last.hour };
  const value = formatDayHour(at, timeZone);
  if (t >= MINUTES_FROM_MS) {
    if (lastMinute.size >= 10_000) lastMinute.clear();
    lastMinute.set(timeZone, { minute, ...value });
  }
  return value;
}

function formatDayHour(at: Date, timeZone: string): { day: string; hour: number } {
  let f = hourFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit" });
    hourFormatters.set(timeZone, f);
  }
  let year = "";
  let month = "";
  let day = "";
  let hour = 0;
  for (const p of f.formatToParts(at)) {
    if (p.type === "year") year = p.value;
    else if (p.type === "month") month = p.value;
    else if (p.type === "day") day = p.value;
    else if (p.type === "hour") hour = Number(p.value) % 24;
  }
  return { day: `${year}-${month}-${day}`, hour };
}

/** Monday 0 .. Sunday 6 of a day (`YYYY-MM-DD`). */
export function weekdayOf(day: string): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** Every day from `from` to `to` inclusive (`YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of `timeZone` from UTC at instant `t`, in milliseconds. */
function zoneOffset(t: number, timeZone: string): number {
  let f = clockFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clockFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(t / 1000) * 1000;
}

/** The instant at which the wall clock in `timeZone` shows `day` (YYYY-MM-DD) and `secondOfDay`. */
export function zonedInstant(day: string, secondOfDay: number, timeZone: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`) + secondOfDay * 1000;
  const first = wall - zoneOffset(wall, timeZone);
  // Near a DST change the offset at the first guess may differ from the offset at the answer.
  const second = wall - zoneOffset(first, timeZone);
  return new Date(second);
}

/** The first instant of a local day; where the clocks skip midnight, the first instant that exists. */
function dayStart(day: string, timeZone: string): Date {
  const at = zonedInstant(day, 0, timeZone);
  return localDay(at, timeZone) < day ? new Date(at.getTime() + 3600_000) : at;
}

/** The local day of `at` in `timeZone`, and the instants at which it starts and ends. */
export function localDayBounds(at: Date, timeZone: string): { day: string; start: Date; end: Date } {
  const day = localDay(at, timeZone);
  return { day, start: dayStart(day, timeZone), end: dayStart(addDays(day, 1), timeZone) };
}
