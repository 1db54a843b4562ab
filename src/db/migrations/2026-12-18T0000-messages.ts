/**
 * Messages that reach people (docs/messages.md):
 * - messages: the outbox of e-mails and texts (guest automations, quick reports, test e-mails), one
 *   row per message, written in the transaction of what caused it, sent with a lease like
 *   webhook_deliveries; `dedupe_key` (unique) makes a message that may be queued twice (a report of
 *   a day, an absence reminder) exist once, whichever instance queues it;
 * - message_attempts: the delivery log, one row per attempt;
 * - automations: an account's guest automations (trigger, channel, delay, templates, cap);
 * - automation_runs: the absence and birthday runs of an automation per location and local day;
 * - survey_answers: the one-question survey after a visit (score 0-10 and a comment);
 * - consent_events: changes of a guest's marketing consent outside a login (unsubscribes, STOP);
 * - sms_opt_outs: numbers that replied STOP, never texted marketing again;
 * - the quick report's settings of sub-users (frequency) and of account owners (on, frequency, location).
 * On PostgreSQL, writes to automations announce themselves like the catalogue tables do, so the
 * per-account "has automations" flag cached by logins and accounting is dropped on every instance.
 */
import { type Kysely, sql } from "kysely";
import { BIG, dialectOf, idColumn, idColumnType } from "../dialect.js";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("automations")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    // welcome, visit-ended, absence, birthday
    .addColumn("trigger", "varchar(16)", (c) => c.notNull())
    // email or sms
    .addColumn("channel", "varchar(8)", (c) => c.notNull())
    // ",1,2," ("" for every location): matched with LIKE, as webhooks do.
    .addColumn("location_ids", "varchar(2000)", (c) => c.notNull().defaultTo(""))
    .addColumn("delay_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("absence_days", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("send_time", "varchar(5)", (c) => c.notNull().defaultTo("10:00"))
    .addColumn("subject", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("body", "text", (c) => c.notNull())
    // {"fr": {"subject": "...", "body": "..."}, ...}
    .addColumn("translations", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("cap_messages", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("cap_days", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("survey", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("survey_question", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("review_url", "varchar(2048)", (c) => c.notNull().defaultTo(""))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("date_created", "varchar(19)", (c) => c.notNull())
    .addColumn("last_modified", "varchar(19)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("automations_account").on("automations").columns(["account_id", "deleted", "trigger"]).execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.references("accounts.id"))
    // automation, quick-report, test
    .addColumn("kind", "varchar(16)", (c) => c.notNull())
    .addColumn("channel", "varchar(8)", (c) => c.notNull())
    .addColumn("automation_id", "integer", (c) => c.references("automations.id"))
    .addColumn("guest_id", "integer")
    .addColumn("location_id", "integer")
    .addColumn("sub_user_id", "integer")
    .addColumn("dedupe_key", "varchar(160)", (c) => c.unique())
    // When what triggered it happened (UTC datetime): the login, the end of the session, the day.
    .addColumn("trigger_at", "varchar(19)", (c) => c.notNull())
    .addColumn("recipient", "varchar(254)", (c) => c.notNull().defaultTo(""))
    .addColumn("subject", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("language", "varchar(16)", (c) => c.notNull().defaultTo(""))
    // The message as sent: the whole MIME message of an e-mail, the text of a text message. Null
    // until an automation's message is written (at its first attempt).
    .addColumn("content", "text")
    // pending, sent, failed, skipped (not sent, with the reason), cancelled (withdrawn before sending)
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_ms", BIG, (c) => c.notNull())
    .addColumn("next_attempt_ms", BIG, (c) => c.notNull())
    .addColumn("lease_until_ms", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("last_status", "integer")
    .addColumn("last_error", "varchar(255)")
    .addColumn("finished_ms", BIG)
    // The SMTP server's answer or Twilio's message SID of the attempt that sent it.
    .addColumn("provider_id", "varchar(255)")
    .execute();
  await db.schema.createIndex("messages_queue").on("messages").columns(["status", "next_attempt_ms"]).execute();
  await db.schema.createIndex("messages_guest").on("messages").columns(["guest_id", "id"]).execute();
  await db.schema.createIndex("messages_location").on("messages").columns(["location_id", "id"]).execute();
  await db.schema.createIndex("messages_account").on("messages").columns(["account_id", "id"]).execute();
  await db.schema.createIndex("messages_cap").on("messages").columns(["automation_id", "guest_id", "status"]).execute();

  await db.schema
    .createTable("message_attempts")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("message_id", "integer", (c) => c.notNull().references("messages.id"))
    .addColumn("channel", "varchar(8)", (c) => c.notNull())
    .addColumn("attempted_ms", BIG, (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "varchar(255)")
    .execute();
  await db.schema.createIndex("message_attempts_message").on("message_attempts").columns(["message_id", "id"]).execute();
  await db.schema.createIndex("message_attempts_rate").on("message_attempts").columns(["channel", "attempted_ms"]).execute();

  await db.schema
    .createTable("automation_runs")
    .addColumn("automation_id", "integer", (c) => c.notNull().references("automations.id"))
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", "varchar(10)", (c) => c.notNull())
    .addPrimaryKeyConstraint("automation_runs_pk", ["automation_id", "location_id", "day"])
    .execute();

  await db.schema
    .createTable("survey_answers")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("message_id", "integer", (c) => c.notNull().unique().references("messages.id"))
    .addColumn("automation_id", "integer", (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("score", "integer", (c) => c.notNull())
    .addColumn("comment", "varchar(2000)", (c) => c.notNull().defaultTo(""))
    .addColumn("answered_at", "varchar(19)", (c) => c.notNull())
    // The location's local day of the answer: the console's score over time.
    .addColumn("local_day", "varchar(10)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("survey_answers_location").on("survey_answers").columns(["location_id", "local_day"]).execute();
  await db.schema.createIndex("survey_answers_guest").on("survey_answers").columns(["guest_id", "id"]).execute();

  await db.schema
    .createTable("consent_events")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addColumn("marketing_opt_in", "integer", (c) => c.notNull())
    // unsubscribe-link, one-click, sms-stop
    .addColumn("source", "varchar(32)", (c) => c.notNull())
    .addColumn("message_id", "integer")
    .addColumn("changed_at", "varchar(19)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("consent_events_guest").on("consent_events").columns(["guest_id", "id"]).execute();

  await db.schema
    .createTable("sms_opt_outs")
    .addColumn("phone_number", "varchar(32)", (c) => c.notNull().primaryKey())
    .addColumn("opted_out_at", "varchar(19)", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("sub_users").addColumn("quickreport_frequency", "varchar(8)", (c) => c.notNull().defaultTo("daily")).execute();
  await db.schema.alterTable("accounts").addColumn("quickreport", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("accounts").addColumn("quickreport_frequency", "varchar(8)", (c) => c.notNull().defaultTo("daily")).execute();
  await db.schema.alterTable("accounts").addColumn("quickreport_location_id", "integer", (c) => c.notNull().defaultTo(0)).execute();

  if (dialectOf(db) === "postgres") {
    await sql`create trigger automations_catalogue_changed after insert or update or delete or truncate on automations
      for each statement execute function guestwifi_catalogue_changed()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ["quickreport", "quickreport_frequency", "quickreport_location_id"]) await db.schema.alterTable("accounts").dropColumn(c).execute();
  await db.schema.alterTable("sub_users").dropColumn("quickreport_frequency").execute();
  for (const t of ["sms_opt_outs", "consent_events", "survey_answers", "automation_runs", "message_attempts", "messages", "automations"]) {
    await db.schema.dropTable(t).execute();
  }
}
