/**
 * The specification's quick report: to each sub-user with `quickreport` on (and each account owner
 * who asked for it), an e-mail about its locations: the day before (or the week before) against the
 * same weekday a week earlier (or the week before that), from the analytics' daily aggregates.
 *
 * A recipient's days are those of its first location's time zone (the report goes out after
 * QUICK_REPORT_HOUR there). Each report is queued once: its outbox row carries a dedupe key
 * (recipient, frequency, day), so several instances queue it once between them.
 */
import type { Config } from "../../config.js";
import { inTransaction } from "../../db/transaction.js";
import { ClosedDaysCache } from "../analytics/closed-days-cache.js";
import { overview } from "../analytics/overview.service.js";
import type { Ctx } from "../context.js";
import { addDays, localDayHour, weekdayOf } from "../guests/local-day.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { quickReportLocationsOf } from "../subusers/subusers.service.js";
import { linkKey } from "./message-tokens.js";
import { type Frequency, type Period, type ReportFigures, composeQuickReport } from "./quick-report-mail.js";


export interface Recipient {
  accountId: number;
  /** null: the account's owner. */
  subUserId: number | null;
  email: string;
  frequency: Frequency;
  locations: LocationRow[];
}

/** Every recipient with the quick report on (optionally only the one with this e-mail). */
export async function quickReportRecipients(ctx: Ctx, email?: string): Promise<Recipient[]> {
  const out: Recipient[] = [];
  for (const o of await ctx.repos.accounts.ownersWithQuickReport(ctx.db)) {
    const all = await ctx.repos.locations.listLive(ctx.db, o.id);
    const chosen = all.filter((l) => l.id === o.quickreport_location_id);
    out.push({ accountId: o.id, subUserId: null, email: o.email, frequency: o.quickreport_frequency as Frequency, locations: chosen.length ? chosen : all });
  }
  for (const s of await ctx.repos.subUsers.listQuickReport(ctx.db)) {
    out.push({ accountId: s.account_id, subUserId: s.id, email: s.email, frequency: s.quickreport_frequency as Frequency, locations: await quickReportLocationsOf(ctx, s) });
  }
  const wanted = email?.trim().toLowerCase();
  return out.filter((r) => r.locations.length > 0 && (wanted === undefined || r.email.toLowerCase() === wanted));
}

/** The period a report sent at `now` covers: the day before, or the last whole week (Monday to Sunday), in `timezone`. */
export function periodAt(frequency: Frequency, now: Date, timezone: string): Period {
  const today = localDayHour(now, timezone).day;
  if (frequency === "daily") return { frequency, from: addDays(today, -1), to: addDays(today, -1) };
  const monday = addDays(today, -weekdayOf(today));
  return { frequency, from: addDays(monday, -7), to: addDays(monday, -1) };
}

/** Whether the report of `now`'s period is due: after QUICK_REPORT_HOUR (local), the day after the period. */
export function reportDue(now: Date, timezone: string, hour: number): boolean {
  return localDayHour(now, timezone).hour >= hour;
}

export function dedupeKeyOf(r: Recipient, p: Period): string {
  return `qr:${r.subUserId !== null ? `s${r.subUserId}` : `o${r.accountId}`}:${p.frequency}:${p.from}`;
}

/** The figures of a period against the period a week earlier. */
export async function reportFigures(ctx: Ctx, locations: LocationRow[], p: Period, now: Date): Promise<ReportFigures> {
  const cache = new ClosedDaysCache();
  const [current, before] = await Promise.all([
    overview(ctx, cache, locations, p.from, p.to, now.getTime()),
    overview(ctx, cache, locations, addDays(p.from, -7), addDays(p.to, -7), now.getTime()),
  ]);
  return { period: p, locations: locations.map((l) => l.name), current, before };
}

/**
 * Queues the recipient's report of period `p` (once: false when it was queued before, unless
 * `again`, for sending at once from the command line). Returns the outbox id, or undefined.
 */
export async function queueQuickReport(ctx: Ctx, config: Readonly<Config>, r: Recipient, p: Period, now: Date, again = false): Promise<number | undefined> {
  const mail = config.mail;
  if (!mail) return undefined;
  const dedupeKey = again ? null : dedupeKeyOf(r, p);
  if (dedupeKey && (await ctx.repos.outbox.exists(ctx.db, dedupeKey))) return undefined;
  const figures = await reportFigures(ctx, r.locations, p, now);
  const key = await linkKey(ctx.db);
  const queued = { accountId: r.accountId, kind: "quick-report" as const, recipient: r.email, subUserId: r.subUserId, dedupeKey, at: now };
  return inTransaction(ctx.db, (trx) =>
    ctx.repos.outbox.queueComposed(trx, { ...queued, locationId: r.locations.length === 1 ? r.locations[0].id : null }, (id) =>
      composeQuickReport(config, key, id, r.email, figures, now),
    ),
  );
}

/** The schedule's pass: every recipient whose report of the current period is due and not yet queued. Returns how many were queued. */
export async function queueDueQuickReports(ctx: Ctx, config: Readonly<Config>, now: Date = new Date()): Promise<number> {
  if (!config.mail) return 0;
  let n = 0;
  for (const r of await quickReportRecipients(ctx)) {
    const zone = r.locations[0].timezone;
    if (!reportDue(now, zone, config.messages.quickReportHour)) continue;
    if ((await queueQuickReport(ctx, config, r, periodAt(r.frequency, now, zone), now)) !== undefined) n++;
  }
  return n;
}
