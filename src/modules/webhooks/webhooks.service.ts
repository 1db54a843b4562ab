/** An account's webhooks: saved (with the SSRF rules of webhook-target.ts), listed, deleted, and their delivery log. */
import type { DB } from "../../db/database.js";
import { listOf, listText } from "../../db/list-column.js";
import { nowDatetime, toDbDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import type { WebhookEvent } from "./webhook-events.js";
import { newWebhookSecret } from "./webhook-signature.js";
import type { AttemptRow, DeliveryRow, WebhookRow } from "./webhooks.repository.js";

export interface WebhookInput {
  url: string;
  events: WebhookEvent[];
  /** Only events of these locations; empty: every location. */
  locationIds: number[];
}

export function webhookRecord(w: WebhookRow) {
  return {
    webhook_id: w.id,
    url: w.url,
    events: listOf(w.events),
    location_ids: listOf(w.location_ids).map(Number),
    date_created: w.date_created,
    last_modified: w.last_modified,
  };
}

/** Creates the webhook (its secret returned this once) or updates `existing` (the secret is kept). */
export async function saveWebhook(ctx: Ctx, accountId: number, input: WebhookInput, existing?: WebhookRow): Promise<{ row: WebhookRow; secret?: string }> {
  const now = nowDatetime();
  const fields = { url: input.url, events: listText(input.events), location_ids: listText(input.locationIds) };
  if (existing) {
    await ctx.repos.webhooks.update(ctx.db, existing.id, { ...fields, last_modified: now });
    return { row: { ...existing, ...fields, last_modified: now } };
  }
  const secret = newWebhookSecret();
  const row = { account_id: accountId, ...fields, secret, date_created: now, last_modified: now };
  const id = await ctx.repos.webhooks.insert(ctx.db, row);
  return { row: { id, deleted: 0, ...row }, secret };
}

export async function listWebhooks(ctx: Ctx, accountId: number) {
  return (await ctx.repos.webhooks.listByAccount(ctx.db, accountId)).map(webhookRecord);
}

export async function deleteWebhook(ctx: Ctx, webhook: WebhookRow): Promise<void> {
  const at = new Date();
  await ctx.repos.webhooks.softDelete(ctx.db, webhook.id, toDbDatetime(at), at.getTime());
}

const iso = (ms: number | null) => (ms === null ? "" : new Date(Number(ms)).toISOString());

function deliveryRecord(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    delivery_id: d.id,
    message_id: messageId(d.id),
    event_type: d.event_type,
    status: d.status,
    attempts: Number(d.attempts),
    created_at: iso(d.created_ms),
    next_attempt_at: d.status === "pending" ? iso(d.next_attempt_ms) : "",
    finished_at: iso(d.finished_ms),
    last_status_code: d.last_status,
    last_error: d.last_error ?? "",
    payload: JSON.parse(d.payload) as unknown,
    attempt_log: attempts.map((a) => ({
      attempted_at: iso(a.attempted_ms),
      duration_ms: Number(a.duration_ms),
      status_code: a.status_code,
      error: a.error ?? "",
    })),
  };
}

/** The Standard Webhooks message id of a delivery: the same on every retry. */
export function messageId(deliveryId: number): string {
  return `msg_${deliveryId}`;
}

/** The delivery log of a webhook, newest first, a page of `limit` before `beforeId`. */
export async function listDeliveries(db: DB, ctx: Ctx, webhook: WebhookRow, q: { status?: string; beforeId?: number; limit: number }) {
  const rows = await ctx.repos.webhooks.listDeliveries(db, webhook.id, q);
  const attempts = await ctx.repos.webhooks.listAttempts(
    db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return rows.map((d) => deliveryRecord(d, byDelivery.get(d.id) ?? []));
}
