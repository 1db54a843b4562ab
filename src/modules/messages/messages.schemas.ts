import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";
import { MESSAGE_STATUSES } from "../outbox/outbox.repository.js";
import { oneOf } from "./automations.schemas.js";
import { FREQUENCIES } from "./quick-report-mail.js";

const Success = Type.Literal("success");
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;
export const SURVEY_MAX_DAYS = 366;
export const MESSAGE_KINDS = ["automation", "quick-report", "test"] as const;

const Paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Page, from 1." })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: `Per page (${DEFAULT_PAGE}; at most ${MAX_PAGE}).` })),
};
const PageInfo = {
  total: Type.Integer({ description: "How many match, on every page." }),
  page: Type.Integer(),
  per_page: Type.Integer(),
};

export const MessageListParams = Type.Object({
  identifier: F.identifier(),
  user_id: Type.Optional(F.id("Only messages to this guest (social_user_id).")),
  location_id: Type.Optional(F.id("Only messages about this location.")),
  automation_id: Type.Optional(F.id("Only messages of this automation (deleted ones too).")),
  status: Type.Optional(oneOf(MESSAGE_STATUSES, "Only messages in this state.")),
  kind: Type.Optional(oneOf(MESSAGE_KINDS, "Only messages of this kind.")),
  ...Paging,
});

const Attempt = Type.Object({
  attempted_at: Type.String(),
  duration_ms: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The SMTP reply code or Twilio's HTTP status; null when none came." }),
  error: Type.String(),
});

export const MessageRecord = Type.Object({
  message_id: Type.Integer(),
  kind: Type.String({ description: "automation, quick-report or test." }),
  channel: Type.String({ description: "email or sms." }),
  status: Type.String({ description: "pending, sent, failed, skipped (not sent; last_error says why) or cancelled (withdrawn before sending)." }),
  automation_id: Type.Integer({ description: "0 when none." }),
  user_id: Type.Integer({ description: "The guest (social_user_id); 0 when none." }),
  location_id: Type.Integer({ description: "0 when none." }),
  recipient: Type.String({ description: "The address or number, once the message was written." }),
  subject: Type.String(),
  language: Type.String(),
  attempts: Type.Integer(),
  created_at: Type.String(),
  next_attempt_at: Type.String({ description: 'While pending: when it is due (ISO 8601); else "".' }),
  finished_at: Type.String(),
  last_error: Type.String(),
  attempt_log: Type.Array(Attempt),
});

export const MessageListResponse = Type.Object({ status: Success, data: Type.Array(MessageRecord), ...PageInfo });

export const SendTestEmailParams = Type.Object({
  identifier: F.identifier(),
  to: Type.Optional(F.text(254, "Where to send it; default: the caller's own e-mail address.", { format: "email" })),
});
export const SendTestEmailResponse = Type.Object({ status: Success, message: Type.String(), message_id: Type.Integer() });

export const QuickReportParams = Type.Object({
  identifier: F.identifier(),
  quickreport: oneOf(["0", "1", "true", "false"], "The caller's quick report on (1/true) or off (0/false)."),
  frequency: Type.Optional(oneOf(FREQUENCIES, "daily (the day before, default) or weekly (Monday to Sunday, sent on Monday).")),
  quickreport_location_id: Type.Optional(F.idOrZero("The account owner's report: one location, or 0 for every location.")),
});
export const GetQuickReportParams = Type.Object({ identifier: F.identifier() });
export const QuickReportRecord = Type.Object({
  email: Type.String({ description: "Where the report goes." }),
  quickreport: Type.Integer(),
  frequency: Type.String(),
  quickreport_location_id: Type.Integer({ description: "0: every location." }),
});
export const QuickReportResponse = Type.Object({ status: Success, data: QuickReportRecord });

export const SurveyAnswerListParams = Type.Object({
  identifier: F.identifier(),
  user_id: Type.Optional(F.id("Only this guest's answers.")),
  location_id: Type.Optional(F.id("Only answers about this location.")),
  ...Paging,
});
export const SurveyAnswer = Type.Object({
  answer_id: Type.Integer(),
  message_id: Type.Integer(),
  automation_id: Type.Integer(),
  user_id: Type.Integer(),
  location_id: Type.Integer(),
  score: Type.Integer({ description: "0 to 10." }),
  comment: Type.String(),
  answered_at: Type.String({ description: "UTC, YYYY-MM-DD HH:MM:SS." }),
});
export const SurveyAnswerListResponse = Type.Object({ status: Success, data: Type.Array(SurveyAnswer), ...PageInfo });

export const SurveyScoresParams = Type.Object({
  identifier: F.identifier(),
  location_id: F.id("The location."),
  from_date: F.date("First day (the location's calendar)."),
  to_date: F.date(`Last day, at most ${SURVEY_MAX_DAYS} days after from_date.`),
});
export const SurveyScoresResponse = Type.Object({
  status: Success,
  categories: Type.Array(Type.String(), { description: "Every day of the range." }),
  answers: Type.Array(Type.Integer(), { description: "Answers per day." }),
  average: Type.Array(Type.Union([Type.Number(), Type.Null()]), { description: "Average score per day (null: no answer)." }),
  nps: Type.Array(Type.Union([Type.Integer(), Type.Null()]), { description: "Net promoter score per day: % of 9-10 minus % of 0-6 (null: no answer)." }),
  totals: Type.Object({ answers: Type.Integer(), average: Type.Union([Type.Number(), Type.Null()]), nps: Type.Union([Type.Integer(), Type.Null()]) }),
});
