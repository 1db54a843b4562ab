import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";
import { WEBHOOK_EVENTS } from "./webhook-events.js";

const Success = Type.Literal("success");

/** At most this many locations in a webhook's location_ids. */
export const MAX_WEBHOOK_LOCATIONS = 100;
export const MAX_DELIVERIES_PER_PAGE = 100;

export const WebhookWriteParams = Type.Object({
  identifier: F.identifier(),
  webhook_id: Type.Optional(F.id("Existing webhook to update; omit to create a new one (its secret is shown once).")),
  url: F.text(2048, "Where events are POSTed: an http or https URL on a public address (private ones only with WEBHOOK_ALLOW_PRIVATE=true).", {
    minLength: 1,
  }),
  events: F.text(255, `Comma-separated events among ${WEBHOOK_EVENTS.join(", ")}.`, { minLength: 1, examples: ["guest.login,session.stop"] }),
  location_ids: Type.Optional(F.idList(`Only events of these locations (up to ${MAX_WEBHOOK_LOCATIONS} comma-separated ids); omit or empty for every location.`)),
});

export const WebhookRecord = Type.Object({
  webhook_id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  location_ids: Type.Array(Type.Integer(), { description: "Empty: every location." }),
  date_created: Type.String(),
  last_modified: Type.String(),
});

export const WebhookWriteResponse = Type.Object({
  status: Success,
  message: Type.String(),
  webhook_id: Type.Integer(),
  secret: Type.Optional(
    Type.String({ description: "Only when the webhook is created: the signing secret (whsec_...), shown this once. Store it now." }),
  ),
  data: WebhookRecord,
});

export const WebhookListParams = Type.Object({ identifier: F.identifier() });
export const WebhookListResponse = Type.Object({ status: Success, data: Type.Array(WebhookRecord) });

export const DeleteWebhookParams = Type.Object({ identifier: F.identifier(), webhook_id: F.id("The webhook to delete.") });
export const MessageResponse = Type.Object({ status: Success, message: Type.String() });

export const DeliveryListParams = Type.Object({
  identifier: F.identifier(),
  webhook_id: F.id("The webhook whose deliveries to list."),
  status: Type.Optional(
    Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed")], {
      description: "Only deliveries in this state.",
      "x-error": "oneOf",
      "x-values": ["pending", "delivered", "failed"],
    }),
  ),
  before_delivery_id: Type.Optional(F.idOrZero("The next page: the next_before_delivery_id of the previous answer.")),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DELIVERIES_PER_PAGE, description: `At most ${MAX_DELIVERIES_PER_PAGE} (default 50).`, "x-error": "invalid" })),
});

const Attempt = Type.Object({
  attempted_at: Type.String(),
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The target's HTTP status; null when it did not answer." }),
  error: Type.String(),
});

export const Delivery = Type.Object({
  delivery_id: Type.Integer(),
  message_id: Type.String({ description: "The webhook-id header, the same on every attempt." }),
  event_type: Type.String(),
  status: Type.String({ description: "pending, delivered or failed." }),
  attempts: Type.Integer(),
  created_at: Type.String(),
  next_attempt_at: Type.String({ description: 'The next retry (ISO 8601) while pending, else "".' }),
  finished_at: Type.String(),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.String(),
  payload: Type.Unknown({ description: "The JSON body sent." }),
  attempt_log: Type.Array(Attempt),
});

export const DeliveryListResponse = Type.Object({
  status: Success,
  data: Type.Array(Delivery),
  next_before_delivery_id: Type.Integer({ description: "Give as before_delivery_id for the next page; 0 when this was the last." }),
});
