/** Guest automations: saved, listed, deleted (their messages not yet sent withdrawn). */
import { listOf, listText } from "../../db/list-column.js";
import { nowDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import type { AutomationTrigger } from "../outbox/outbox-triggers.js";
import type { AutomationRow } from "./automations.repository.js";
import { languageCode, unknownFields } from "./templates.js";

export type Channel = "email" | "sms";
export type Translations = Record<string, { subject: string; body: string }>;

/** What a write gives; undefined keeps the stored value (or takes the default on create). */
export interface AutomationInput {
  name?: string;
  trigger?: AutomationTrigger;
  channel?: Channel;
  locationIds?: number[];
  delayMinutes?: number;
  absenceDays?: number;
  sendTime?: string;
  subject?: string;
  body?: string;
  translations?: Translations;
  capMessages?: number;
  capDays?: number;
  survey?: boolean;
  surveyQuestion?: string;
  reviewUrl?: string;
  active?: boolean;
}

const DEFAULT_DELAY: Record<AutomationTrigger, number> = { welcome: 0, "visit-ended": 60, absence: 0, birthday: 0 };

/** The translations of a write (JSON), or the sentence that refuses them. */
export function parseTranslations(text: string): { translations: Translations } | { sentence: string } {
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { sentence: "The translations must be a JSON object." };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { sentence: "The translations must be a JSON object." };
  const out: Translations = {};
  for (const [key, value] of Object.entries(raw)) {
    const lang = languageCode(key);
    if (lang === "" || lang !== key.toLowerCase().replace(/_/g, "-")) return { sentence: `The translations key "${key.slice(0, 20)}" is not a language code (such as fr or pt-br).` };
    const v = value as Record<string, unknown> | null;
    if (typeof v !== "object" || v === null || typeof (v.subject ?? "") !== "string" || typeof (v.body ?? "") !== "string") {
      return { sentence: `The translations of "${lang}" must be an object with subject and body texts.` };
    }
    const subject = String(v.subject ?? "");
    const body = String(v.body ?? "");
    if (subject.length > 255 || body.length > 5000) return { sentence: `The translations of "${lang}" are too long (subject 255, body 5000 characters).` };
    out[lang] = { subject, body };
  }
  return { translations: out };
}

/** The placeholders of the texts that name no field, for the error sentence. */
export function unknownPlaceholders(texts: string[]): string[] {
  return [...new Set(texts.flatMap(unknownFields))];
}

export function translationsOf(row: AutomationRow): Translations {
  try {
    return JSON.parse(row.translations) as Translations;
  } catch {
    return {};
  }
}

export function automationRecord(a: AutomationRow) {
  return {
    automation_id: a.id,
    name: a.name,
    trigger: a.trigger,
    channel: a.channel,
    location_ids: listOf(a.location_ids).map(Number),
    delay_minutes: a.delay_minutes,
    absence_days: a.absence_days,
    send_time: a.send_time,
    subject: a.subject,
    body: a.body,
    translations: translationsOf(a),
    cap_messages: a.cap_messages,
    cap_days: a.cap_days,
    survey: a.survey,
    survey_question: a.survey_question,
    review_url: a.review_url,
    active: a.active,
    date_created: a.date_created,
    last_modified: a.last_modified,
  };
}

function fieldsOf(input: AutomationInput) {
  const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);
  const fields = {
    name: input.name?.trim(),
    trigger: input.trigger,
    channel: input.channel,
    location_ids: input.locationIds ? listText(input.locationIds) : undefined,
    delay_minutes: input.delayMinutes,
    absence_days: input.absenceDays,
    send_time: input.sendTime,
    subject: input.subject?.trim(),
    body: input.body?.trim(),
    translations: input.translations ? JSON.stringify(input.translations) : undefined,
    cap_messages: input.capMessages,
    cap_days: input.capDays,
    survey: flag(input.survey),
    survey_question: input.surveyQuestion?.trim(),
    review_url: input.reviewUrl?.trim(),
    active: flag(input.active),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/**
 * Creates the automation (trigger and channel given) or updates `existing` with the fields given.
 * Pausing or changing an automation withdraws its messages not yet sent only when it is paused.
 */
export async function saveAutomation(ctx: Ctx, accountId: number, input: AutomationInput, existing?: AutomationRow): Promise<AutomationRow> {
  const now = nowDatetime();
  const fields = fieldsOf(input);
  if (existing) {
    await ctx.repos.automations.update(ctx.db, existing.id, { ...fields, last_modified: now });
    if (input.active === false && existing.active === 1) await ctx.repos.outbox.cancelOfAutomation(ctx.db, existing.id, "automation paused", Date.now());
    return { ...existing, ...fields, last_modified: now } as AutomationRow;
  }
  const trigger = input.trigger!;
  const row = {
    account_id: accountId,
    name: input.name?.trim() || `${trigger} ${input.channel}`,
    trigger,
    channel: input.channel!,
    location_ids: listText(input.locationIds ?? []),
    delay_minutes: input.delayMinutes ?? DEFAULT_DELAY[trigger],
    absence_days: input.absenceDays ?? 30,
    send_time: input.sendTime ?? "10:00",
    subject: input.subject?.trim() ?? "",
    body: input.body?.trim() ?? "",
    translations: JSON.stringify(input.translations ?? {}),
    cap_messages: input.capMessages ?? 1,
    cap_days: input.capDays ?? 1,
    survey: input.survey ? 1 : 0,
    survey_question: input.surveyQuestion?.trim() ?? "",
    review_url: input.reviewUrl?.trim() ?? "",
    active: input.active === false ? 0 : 1,
    date_created: now,
    last_modified: now,
  };
  const id = await ctx.repos.automations.insert(ctx.db, row);
  return { id, deleted: 0, ...row };
}

export async function listAutomations(ctx: Ctx, accountId: number) {
  return (await ctx.repos.automations.listByAccount(ctx.db, accountId)).map(automationRecord);
}

export async function deleteAutomation(ctx: Ctx, a: AutomationRow): Promise<void> {
  await ctx.repos.automations.update(ctx.db, a.id, { deleted: 1, active: 0, last_modified: nowDatetime() });
  await ctx.repos.outbox.cancelOfAutomation(ctx.db, a.id, "automation deleted", Date.now());
}
