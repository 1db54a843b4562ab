/**
 * The settings of messages to guests and owners: outgoing e-mail (src/mail-config.ts), texts through
 * Twilio and the portal's SMS codes, and the message outbox (docs/messages.md). Read by config.ts
 * with its readers so that every variable fails with the same kind of message.
 */
import type { ConfigReaders } from "./config-readers.js";
import { type MailConfig, mailConfig } from "./mail-config.js";

export interface MessagesConfig {
  twilio: { baseUrl: string; accountSid: string; authToken: string; from: string } | undefined;
  smsCodeTtlSeconds: number;
  smsMaxAttempts: number;
  /** Texts a location may send per local day, counted in the database. */
  smsDailyBudgetPerLocation: number;
  /** Outgoing e-mail (SMTP_URL with MAIL_FROM); undefined: this service sends no e-mail. */
  mail: MailConfig | undefined;
  /** The message outbox: e-mails and texts (docs/messages.md). */
  messages: {
    /** MESSAGE_WORKER: this instance sends messages and runs the schedules (every instance fills the outbox). */
    worker: boolean;
    /** E-mails sent per minute across every instance (MAIL_RATE_PER_MINUTE). */
    mailRatePerMinute: number;
    /** Marketing texts sent per minute across every instance (SMS_RATE_PER_MINUTE). */
    smsRatePerMinute: number;
    /** Bound on one attempt (MESSAGE_TIMEOUT_MS). */
    timeoutMs: number;
    /** First retry after this long, doubling each time up to an hour (MESSAGE_RETRY_BASE_MS). */
    retryBaseMs: number;
    /** A message still failing this long after it was due is marked failed (MESSAGE_RETRY_FOR_MS). */
    retryForMs: number;
    /** How often the outbox is read when idle (MESSAGE_POLL_MS). */
    pollMs: number;
    /** How often quick reports, absence and birthday messages are looked for (MESSAGE_SCHEDULE_INTERVAL_MS; 0: never, here). */
    scheduleIntervalMs: number;
    /** Local hour (0-23) the quick reports of the day before go out (QUICK_REPORT_HOUR). */
    quickReportHour: number;
  };
}

export function messagesConfig(read: ConfigReaders): MessagesConfig {
  const twilioSid = read.optional("TWILIO_ACCOUNT_SID");
  const twilioToken = read.optional("TWILIO_AUTH_TOKEN");
  const twilioFrom = read.optional("TWILIO_FROM");
  if ((twilioSid || twilioToken || twilioFrom) && !(twilioSid && twilioToken && twilioFrom)) {
    read.fail("TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together");
  }
  return {
    twilio:
      twilioSid && twilioToken && twilioFrom
        ? {
            baseUrl: read.url("TWILIO_API_BASE_URL", "https://api.twilio.com")!,
            accountSid: twilioSid,
            authToken: twilioToken,
            from: twilioFrom,
          }
        : undefined,
    smsCodeTtlSeconds: read.int("SMS_CODE_TTL", 600, 30, 86400),
    smsMaxAttempts: read.int("SMS_MAX_ATTEMPTS", 5, 1, 100),
    smsDailyBudgetPerLocation: read.int("SMS_DAILY_BUDGET_PER_LOCATION", 300, 1, 1_000_000),
    mail: mailConfig(read),
    messages: {
      worker: read.bool("MESSAGE_WORKER", true),
      mailRatePerMinute: read.int("MAIL_RATE_PER_MINUTE", 60, 1, 1_000_000),
      smsRatePerMinute: read.int("SMS_RATE_PER_MINUTE", 30, 1, 1_000_000),
      timeoutMs: read.int("MESSAGE_TIMEOUT_MS", 30_000, 100, 300_000),
      retryBaseMs: read.int("MESSAGE_RETRY_BASE_MS", 60_000, 10, 3_600_000),
      retryForMs: read.int("MESSAGE_RETRY_FOR_MS", 48 * 3_600_000, 100, 30 * 24 * 3_600_000),
      pollMs: read.int("MESSAGE_POLL_MS", 1000, 10, 60_000),
      scheduleIntervalMs: read.int("MESSAGE_SCHEDULE_INTERVAL_MS", 60_000, 0, 24 * 3_600_000),
      quickReportHour: read.int("QUICK_REPORT_HOUR", 7, 0, 23),
    },
  };
}
