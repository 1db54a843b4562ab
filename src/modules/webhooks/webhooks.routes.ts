import { type ApiRouter, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { liveLocation } from "../locations/locations.refs.js";
import { WEBHOOK_EVENTS, type WebhookEvent } from "./webhook-events.js";
import { targetRefusal } from "../../outbound-address.js";
import { webhookRule } from "./webhook-target.js";
import { ownedWebhook } from "./webhooks.refs.js";
import * as S from "./webhooks.schemas.js";
import * as webhooks from "./webhooks.service.js";

const tags = ["Webhooks"];

function eventsOf(text: string): { events: WebhookEvent[]; bad: string[] } {
  const items = [...new Set(text.split(",").map((s) => s.trim()).filter((s) => s !== ""))];
  const known = new Set<string>(WEBHOOK_EVENTS);
  return { events: items.filter((e): e is WebhookEvent => known.has(e)), bad: items.filter((e) => !known.has(e)) };
}

export function webhookRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/create-or-update-webhook",
    summary: "Subscribe a URL to events, or update a webhook when webhook_id is given",
    description:
      "Events are POSTed as JSON, signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature: " +
      "HMAC-SHA256 under the secret returned once, at creation). Delivered at least once, in order per webhook, retried " +
      "with exponential backoff for 24 hours, then marked failed (webhook-delivery-list). guest.login carries personal " +
      "fields only for guests who opted in to marketing.",
    tags,
    access: "write",
    params: S.WebhookWriteParams,
    refs: { webhook_id: ownedWebhook.one("update"), location_ids: liveLocation.list(S.MAX_WEBHOOK_LOCATIONS) },
    checks: [
      ({ p, fail }) => {
        if (p.events === undefined) return;
        const { events, bad } = eventsOf(p.events);
        if (bad.length > 0 || events.length === 0) fail("events", `The events must be among ${WEBHOOK_EVENTS.join(", ")}.`);
      },
      async ({ p, fail, config }) => {
        if (p.url === undefined) return;
        const why = await targetRefusal(p.url, webhookRule(config.webhooks));
        if (why) fail("url", why);
      },
    ],
    response: S.WebhookWriteResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const input = { url: p.url, events: eventsOf(p.events).events, locationIds: (r.location_ids ?? []).map((l) => l.id) };
      const { row, secret } = await webhooks.saveWebhook(ctx, caller.accountId, input, r.webhook_id ?? undefined);
      return ok({
        message: secret ? "Webhook has been successfully created." : "Webhook has been successfully updated.",
        webhook_id: row.id,
        ...(secret ? { secret } : {}),
        data: webhooks.webhookRecord(row),
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/webhook-list",
    summary: "The caller's webhooks, ordered by id (secrets are never returned)",
    tags,
    access: "read",
    params: S.WebhookListParams,
    response: S.WebhookListResponse,
    handler: async ({ ctx, caller }) => ok({ data: await webhooks.listWebhooks(ctx, caller.accountId) }),
  });

  api.route({
    method: "POST",
    url: "/api/delete-webhook",
    summary: "Delete a webhook; its deliveries not yet sent are marked failed",
    tags,
    access: "write",
    params: S.DeleteWebhookParams,
    refs: { webhook_id: ownedWebhook.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx }, _p, r) => {
      await webhooks.deleteWebhook(ctx, r.webhook_id);
      return ok({ message: "Webhook has been successfully deleted." });
    },
  });

  api.route({
    method: "GET",
    url: "/api/webhook-delivery-list",
    summary: "A webhook's delivery log, newest first: each event, its state and every attempt",
    tags,
    access: "read",
    params: S.DeliveryListParams,
    refs: { webhook_id: ownedWebhook.one() },
    response: S.DeliveryListResponse,
    handler: async ({ ctx }, p, r) => {
      const limit = p.limit ?? 50;
      const data = await webhooks.listDeliveries(ctx.db, ctx, r.webhook_id, { status: p.status, beforeId: p.before_delivery_id || undefined, limit });
      const last = data[data.length - 1];
      return ok({ data, next_before_delivery_id: data.length === limit && last ? last.delivery_id : 0 });
    },
  });
}
