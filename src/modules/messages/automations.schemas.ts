import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";
import { AUTOMATION_TRIGGERS } from "../outbox/outbox-triggers.js";
import { TEMPLATE_FIELDS } from "./templates.js";

const Success = Type.Literal("success");

export const MAX_AUTOMATION_LOCATIONS = 100;
export const MAX_BODY = 5000;
export const MAX_TRANSLATIONS = 20_000;
/** A week: longer delays are a schedule, not a follow-up. */
export const MAX_DELAY_MINUTES = 10_080;
export const CHANNELS = ["email", "sms"] as const;

/** One of a few words, refused with the list of them. */
export function oneOf<T extends string>(values: readonly T[], description: string) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    { description, "x-error": "oneOf", "x-values": [...values] },
  );
}

const FIELDS = TEMPLATE_FIELDS.map((f) => `{{${f}}}`).join(", ");

export const AutomationWriteParams = Type.Object({
  identifier: F.identifier(),
  automation_id: Type.Optional(F.id("Existing automation to update (omitted fields keep their values); omit to create one.")),
  name: Type.Optional(F.text(100, "A name for the console; default: the trigger and the channel.")),
  trigger: Type.Optional(
    oneOf(
      AUTOMATION_TRIGGERS,
      "welcome: after a guest's first login at the location; visit-ended: after a session ends (RADIUS accounting); " +
        "absence: absence_days without a visit; birthday: on the guest's birthday (when known). Required to create.",
    ),
  ),
  channel: Type.Optional(oneOf(CHANNELS, "email (SMTP_URL) or sms (the Twilio account). Required to create.")),
  location_ids: Type.Optional(F.idList(`Only guests of these locations (up to ${MAX_AUTOMATION_LOCATIONS} ids); omit or empty for every location.`)),
  delay_minutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_DELAY_MINUTES,
      description: "welcome and visit-ended: minutes after the event (default 0 and 60). Up to a week.",
      "x-error": "invalid",
    }),
  ),
  absence_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: "absence: days without a visit (default 30).", "x-error": "invalid" })),
  send_time: Type.Optional(
    F.text(5, "absence and birthday: the location's local time the message goes out, HH:MM (default 10:00).", { pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$" }),
  ),
  subject: Type.Optional(F.text(255, `E-mail subject; empty: the built-in one in the guest's language. Fields: ${FIELDS}, {{field|fallback}}.`)),
  body: Type.Optional(F.text(MAX_BODY, "Plain text; empty: the built-in one in the guest's language. The unsubscribe link (e-mail) or STOP note (text) is added.")),
  translations: Type.Optional(
    F.text(MAX_TRANSLATIONS, 'JSON: language code to {"subject", "body"}, e.g. {"fr": {"subject": "Bienvenue", "body": "Bonjour {{first_name}}"}}. Chosen by the guest\'s locale.'),
  ),
  cap_messages: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "At most this many messages of this automation per guest per cap_days (default 1).", "x-error": "invalid" })),
  cap_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: "The cap's period in days (default 1).", "x-error": "invalid" })),
  survey: Type.Optional(F.flag("visit-ended only: add a one-question survey (0-10 and a comment).")),
  survey_question: Type.Optional(F.text(255, "The survey's question; empty: the built-in one.")),
  review_url: Type.Optional(F.text(2048, "The venue's review page (http or https), linked from the message and the survey's thanks; empty: none.", { format: "http-url-or-empty" })),
  active: Type.Optional(F.flag("1 (default): runs; 0: paused (messages not yet sent are withdrawn).")),
});

const Translation = Type.Object({ subject: Type.String(), body: Type.String() });

export const AutomationRecord = Type.Object({
  automation_id: Type.Integer(),
  name: Type.String(),
  trigger: Type.String(),
  channel: Type.String(),
  location_ids: Type.Array(Type.Integer(), { description: "Empty: every location." }),
  delay_minutes: Type.Integer(),
  absence_days: Type.Integer(),
  send_time: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  translations: Type.Record(Type.String(), Translation),
  cap_messages: Type.Integer(),
  cap_days: Type.Integer(),
  survey: Type.Integer(),
  survey_question: Type.String(),
  review_url: Type.String(),
  active: Type.Integer(),
  date_created: Type.String(),
  last_modified: Type.String(),
});

export const AutomationWriteResponse = Type.Object({ status: Success, message: Type.String(), automation_id: Type.Integer(), data: AutomationRecord });
export const AutomationListParams = Type.Object({ identifier: F.identifier() });
export const AutomationListResponse = Type.Object({ status: Success, data: Type.Array(AutomationRecord) });
export const DeleteAutomationParams = Type.Object({ identifier: F.identifier(), automation_id: F.id("The automation to delete.") });
export const MessageResponse = Type.Object({ status: Success, message: Type.String() });
