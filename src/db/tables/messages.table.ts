/** Automated messages: automations, the message outbox, its attempts, runs and survey answers. Row types for Kysely, put in the Database type by src/db/schema.ts; mirrors migrations/. */
import type { Generated } from "kysely";

export interface AutomationsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** welcome, visit-ended, absence, birthday */
  trigger: string;
  /** email or sms */
  channel: string;
  /** ",1,2,": the locations it runs for; "" for every location of the account. */
  location_ids: string;
  delay_minutes: number;
  absence_days: number;
  /** Local time (HH:MM) absence and birthday messages go out. */
  send_time: string;
  subject: string;
  body: string;
  /** JSON: language -> { subject, body }. */
  translations: string;
  cap_messages: number;
  cap_days: number;
  survey: number;
  survey_question: string;
  review_url: string;
  active: number;
  deleted: Generated<number>;
  date_created: string;
  last_modified: string;
}

export interface MessagesTable {
  id: Generated<number>;
  account_id: number | null;
  /** automation, quick-report, test */
  kind: string;
  /** email or sms */
  channel: string;
  automation_id: number | null;
  guest_id: number | null;
  location_id: number | null;
  sub_user_id: number | null;
  dedupe_key: string | null;
  trigger_at: string;
  recipient: Generated<string>;
  subject: Generated<string>;
  language: Generated<string>;
  /** The MIME message of an e-mail, the text of a text message; null until written. */
  content: string | null;
  /** pending, sent, failed, skipped, cancelled */
  status: Generated<string>;
  attempts: Generated<number>;
  created_ms: number;
  next_attempt_ms: number;
  lease_until_ms: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  finished_ms: number | null;
  provider_id: string | null;
}

export interface MessageAttemptsTable {
  id: Generated<number>;
  message_id: number;
  channel: string;
  attempted_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface AutomationRunsTable {
  automation_id: number;
  location_id: number;
  day: string;
}

export interface SurveyAnswersTable {
  id: Generated<number>;
  account_id: number;
  message_id: number;
  automation_id: number;
  guest_id: number;
  location_id: number;
  score: number;
  comment: string;
  answered_at: string;
  local_day: string;
}
