/**
 * The outbox as the API and the console see it (the log of messages, a test e-mail), the quick
 * report's settings, and what a message's links do: unsubscribe (a guest from marketing, a
 * recipient from the quick report) and the survey's answer.
 */
import type { Config } from "../../config.js";
import { toDbDatetime } from "../../db/time.js";
import { inTransaction } from "../../db/transaction.js";
import { html } from "../../http/html.js";
import type { Ctx } from "../context.js";
import { withdrawMarketingConsent } from "../guests/guest-consent.service.js";
import { daysBetween, localDay } from "../guests/local-day.js";
import type { MessageAttemptRow, MessageFilter, MessageRow } from "../outbox/outbox.repository.js";
import { composeMail, newMessageId } from "./mail-transport.js";
import { STAFF_TEXTS, fill } from "./message-texts.js";
import { linkKey, readToken } from "./message-tokens.js";
import type { Frequency } from "./quick-report-mail.js";

const iso = (ms: number | null) => (ms === null ? "" : new Date(Number(ms)).toISOString());

export function messageRecord(m: MessageRow, attempts: MessageAttemptRow[]) {
  return {
    message_id: m.id,
    kind: m.kind,
    channel: m.channel,
    status: m.status,
    automation_id: m.automation_id ?? 0,
    user_id: m.guest_id ?? 0,
    location_id: m.location_id ?? 0,
    recipient: m.recipient,
    subject: m.subject,
    language: m.language,
    attempts: Number(m.attempts),
    created_at: iso(m.created_ms),
    next_attempt_at: m.status === "pending" ? iso(m.next_attempt_ms) : "",
    finished_at: iso(m.finished_ms),
    last_error: m.last_error ?? "",
    attempt_log: attempts.map((a) => ({ attempted_at: iso(a.attempted_ms), duration_ms: a.duration_ms, status_code: a.status_code, error: a.error ?? "" })),
  };
}

export async function listMessages(ctx: Ctx, f: MessageFilter, page: number, perPage: number) {
  const { rows, total } = await ctx.repos.outbox.list(ctx.db, f, page, perPage);
  const attempts = await ctx.repos.outbox.attemptsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { data: rows.map((m) => messageRecord(m, attempts.filter((a) => a.message_id === m.id))), total, page, per_page: perPage };
}

/** Queues a test e-mail to `to` (the console's button, guestwifi mail test). Returns its outbox id. */
export async function queueTestMail(ctx: Ctx, config: Readonly<Config>, accountId: number | null, to: string, now: Date = new Date()): Promise<number> {
  const mail = config.mail;
  if (!mail) throw new Error("e-mail is not configured: set SMTP_URL and MAIL_FROM");
  const t = STAFF_TEXTS.testMail;
  const body = fill(t.body, { service: config.publicUrl });
  const page = html`<p>${body}</p>`.value;
  const id = await inTransaction(ctx.db, (trx) =>
    ctx.repos.outbox.queueComposed(trx, { accountId, kind: "test", recipient: to, at: now }, async (id) => ({
      subject: t.subject,
      content: await composeMail(mail, newMessageId(mail, id), { to, subject: t.subject, text: body, html: page }, now),
    })),
  );
  return id!;
}

/** Waits until the message is no longer pending (polling the outbox), or `timeoutMs`; answers its row. */
export async function outcomeOf(ctx: Ctx, id: number, timeoutMs: number): Promise<MessageRow | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const m = await ctx.repos.outbox.find(ctx.db, id);
    if (m?.status !== "pending" || Date.now() > end) return m;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The caller's quick report: the owner's (accounts) or a sub-user's own. */
export async function quickReportOf(ctx: Ctx, accountId: number, subUserId: number | null) {
  if (subUserId !== null) {
    const s = await ctx.repos.subUsers.findById(ctx.db, subUserId);
    return { email: s?.email ?? "", quickreport: s?.quickreport ?? 0, frequency: s?.quickreport_frequency ?? "daily", quickreport_location_id: s?.quickreport_location_id ?? 0 };
  }
  const o = await ctx.repos.accounts.ownerQuickReport(ctx.db, accountId);
  const email = (await ctx.repos.accounts.findAccountEmail(ctx.db, accountId)) ?? "";
  return { email, quickreport: o?.quickreport ?? 0, frequency: o?.quickreport_frequency ?? "daily", quickreport_location_id: o?.quickreport_location_id ?? 0 };
}

export async function setQuickReport(ctx: Ctx, accountId: number, subUserId: number | null, on: boolean, frequency?: Frequency, locationId?: number): Promise<void> {
  if (subUserId !== null) await ctx.repos.subUsers.setQuickReport(ctx.db, subUserId, on, frequency, toDbDatetime(new Date()));
  else await ctx.repos.accounts.setOwnerQuickReport(ctx.db, accountId, on, frequency, locationId);
}

/** The message an unsubscribe or survey token names, or undefined (not ours, or the message is gone). */
export async function messageOfToken(ctx: Ctx, purpose: "u" | "s", token: string): Promise<MessageRow | undefined> {
  const id = readToken(await linkKey(ctx.db), purpose, token);
  return id === undefined ? undefined : ctx.repos.outbox.find(ctx.db, id);
}

/** Who a message's unsubscribe concerns, for the page: the location's name, or the report's address. */
export async function unsubscribeSubject(ctx: Ctx, m: MessageRow): Promise<string> {
  if (m.kind === "quick-report") return m.recipient;
  const loc = m.location_id === null ? undefined : await ctx.repos.locations.findById(ctx.db, m.location_id);
  return loc?.name ?? "";
}

/**
 * Unsubscribes what the message came from, at once: a guest's marketing consent (recorded, webhooks
 * told, messages not yet sent withdrawn), or the recipient's quick report.
 */
export async function unsubscribe(ctx: Ctx, m: MessageRow, oneClick: boolean): Promise<void> {
  if (m.kind === "quick-report") {
    await setQuickReport(ctx, m.account_id ?? 0, m.sub_user_id, false);
    return;
  }
  if (m.kind !== "automation" || m.guest_id === null || m.account_id === null) return;
  await inTransaction(ctx.db, async (trx) => {
    const [guest] = await ctx.repos.guests.findOwnedForUpdate(trx, m.account_id!, [m.guest_id!]);
    if (guest) await withdrawMarketingConsent({ ...ctx, db: trx }, guest, oneClick ? "one-click" : "unsubscribe-link", m.id);
  });
}

/** Records the guest's answer to a message's survey (a later answer to the same message replaces it). */
export async function answerSurvey(ctx: Ctx, m: MessageRow, score: number, comment: string, at: Date = new Date()): Promise<boolean> {
  if (m.kind !== "automation" || m.guest_id === null || m.location_id === null || m.automation_id === null || m.account_id === null) return false;
  const [guest] = await ctx.repos.guests.findOwned(ctx.db, m.account_id, [m.guest_id]);
  const location = await ctx.repos.locations.findById(ctx.db, m.location_id);
  if (!guest || !location) return false;
  await ctx.repos.surveys.save(ctx.db, {
    account_id: m.account_id,
    message_id: m.id,
    automation_id: m.automation_id,
    guest_id: m.guest_id,
    location_id: m.location_id,
    score,
    comment: comment.slice(0, 2000),
    answered_at: toDbDatetime(at),
    local_day: localDay(at, location.timezone),
  });
  return true;
}

export async function listSurveyAnswers(ctx: Ctx, f: { accountId: number; guestId?: number; locationId?: number }, page: number, perPage: number) {
  const { rows, total } = await ctx.repos.surveys.list(ctx.db, f, page, perPage);
  const data = rows.map((a) => ({
    answer_id: a.id,
    message_id: a.message_id,
    automation_id: a.automation_id,
    user_id: a.guest_id,
    location_id: a.location_id,
    score: a.score,
    comment: a.comment,
    answered_at: a.answered_at,
  }));
  return { data, total, page, per_page: perPage };
}

const npsOf = (n: number, promoters: number, detractors: number) => (n === 0 ? null : Math.round(((promoters - detractors) / n) * 100));
const averageOf = (n: number, total: number) => (n === 0 ? null : Math.round((total / n) * 10) / 10);

/** A location's survey scores per day: answers, average, net promoter score. */
export async function surveyScores(ctx: Ctx, locationId: number, fromDay: string, toDay: string) {
  const days = daysBetween(fromDay, toDay);
  const byDay = new Map((await ctx.repos.surveys.scoresByDay(ctx.db, locationId, fromDay, toDay)).map((r) => [r.day, r]));
  const sum = { n: 0, total: 0, promoters: 0, detractors: 0 };
  const rows = days.map((d) => byDay.get(d) ?? { day: d, n: 0, total: 0, promoters: 0, detractors: 0 });
  for (const r of rows) {
    sum.n += r.n;
    sum.total += r.total;
    sum.promoters += r.promoters;
    sum.detractors += r.detractors;
  }
  return {
    categories: days,
    answers: rows.map((r) => r.n),
    average: rows.map((r) => averageOf(r.n, r.total)),
    nps: rows.map((r) => npsOf(r.n, r.promoters, r.detractors)),
    totals: { answers: sum.n, average: averageOf(sum.n, sum.total), nps: npsOf(sum.n, sum.promoters, sum.detractors) },
  };
}
