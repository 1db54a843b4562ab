/**
 * Sends the message outbox (messages): e-mails over SMTP, texts through Twilio, at least once,
 * within the rates per minute (counted over every instance's attempts in the database), retried
 * with backoff until MESSAGE_RETRY_FOR_MS after they were due, then failed. A server's final "no"
 * (SMTP 5xx, a Twilio error) fails a message at once.
 *
 * An automation's message is checked again when it is taken, and written then: a guest who
 * withdrew, an automation paused or deleted, the cap reached, no address, a visit that did not
 * end after all: the message is skipped with the reason. Taking, writing and recording all hold
 * the message's lease (src/db/outbox.ts), so a kill -9 loses nothing and another instance sends a
 * message cut off mid-flight again (with the same Message-ID).
 */
import type { Config } from "../../config.js";
import { type BackgroundLog, backgroundFailures } from "../../db/background-failures.js";
import { type OutboxLoop, afterFailure, onOutboxWrite, startOutboxLoop } from "../../db/outbox.js";
import { stopTexts } from "../guests/guest-consent.service.js";
import type { Ctx } from "../context.js";
import type { MessageRow } from "../outbox/outbox.repository.js";
import type { AutomationRow } from "./automations.repository.js";
import { type MailSender, createMailSender } from "./mail-transport.js";
import { composeAutomationMessage } from "./message-compose.js";
import { linkKey } from "./message-tokens.js";
import { SmsSendError, TWILIO_UNSUBSCRIBED, sendSms } from "./twilio-client.js";
import { DAY_MS } from "../../durations.js";

interface Log {
  warn(obj: object, msg?: string): void;
}

const BATCH = 20;
/** Messages sent at once by one instance. */
const CONCURRENCY = 4;
const E164 = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/u;

type Prepared = { skip: string } | { recipient: string; content: string };

interface Outcome {
  ok: boolean;
  permanent: boolean;
  code: number | null;
  response: string;
  /** The number replied STOP (Twilio 21610). */
  stopped?: boolean;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(lanes);
}

export interface MessageSender {
  /** One attempt at the message, if it is due and nobody holds it. */
  attempt(m: MessageRow): Promise<void>;
  /** One read of the outbox within the rates, and the attempts; answers how many messages were due. */
  pass(): Promise<number>;
  close(): void;
}

export function createMessageSender(ctx: Ctx, config: Readonly<Config>, log: Log, mailer?: MailSender): MessageSender {
  const cfg = config.messages;
  const { db, repos } = ctx;
  const sender = mailer ?? (config.mail ? createMailSender(config.mail, cfg.timeoutMs) : undefined);
  const channels = [...(sender ? ["email"] : []), ...(config.twilio ? ["sms"] : [])];

  /** Why an automation's message must not go (now), or undefined. */
  async function refusal(m: MessageRow, a: AutomationRow | undefined): Promise<string | undefined> {
    if (!a || a.deleted === 1) return "automation deleted";
    if (a.active !== 1) return "automation paused";
    const [guest] = m.guest_id === null || m.account_id === null ? [] : await repos.guests.findOwned(db, m.account_id, [m.guest_id]);
    if (!guest) return "guest erased";
    if (guest.marketing_opt_in !== 1) return "no marketing consent";
    if (a.channel === "email" && !EMAIL.test(guest.email)) return "no e-mail address";
    if (a.channel === "sms" && !E164.test(guest.phone_number)) return "no mobile number";
    if (a.channel === "sms" && (await repos.consent.smsOptedOut(db, guest.phone_number))) return "the number replied STOP";
    return undefined;
  }

  async function prepare(m: MessageRow, leaseUntil: number): Promise<Prepared> {
    if (m.kind === "quick-report") {
      const on = m.sub_user_id !== null ? await repos.subUsers.quickReportOn(db, m.sub_user_id) : await repos.accounts.ownerQuickReportOn(db, m.account_id ?? 0);
      return on ? { recipient: m.recipient, content: m.content ?? "" } : { skip: "quick report turned off" };
    }
    if (m.kind !== "automation") return { recipient: m.recipient, content: m.content ?? "" };
    const a = m.automation_id === null ? undefined : await repos.automations.findById(db, m.automation_id);
    const why = await refusal(m, a);
    if (why) return { skip: why };
    if (m.content !== null) return { recipient: m.recipient, content: m.content };
    const automation = a!;
    const [guest] = await repos.guests.findOwned(db, m.account_id!, [m.guest_id!]);
    const location = m.location_id === null ? undefined : await repos.locations.findById(db, m.location_id);
    if (!location || location.deleted === 1) return { skip: "location deleted" };
    if (automation.trigger === "visit-ended" && (await repos.automations.visitContinues(db, guest.id, location.id, m.trigger_at))) {
      return { skip: "visit continued" };
    }
    const since = Date.now() - automation.cap_days * DAY_MS;
    if ((await repos.outbox.sentTo(db, automation.id, guest.id, since)) >= automation.cap_messages) return { skip: "cap reached" };
    const composed = await composeAutomationMessage(config, await linkKey(db), m.id, automation, guest, location);
    if (!(await repos.outbox.writeContent(db, m.id, leaseUntil, composed))) return { skip: "taken over" };
    return { recipient: composed.recipient, content: composed.content };
  }

  async function send(m: MessageRow, p: { recipient: string; content: string }): Promise<Outcome> {
    if (m.channel === "email") {
      const out = await sender!.send(p.recipient, p.content);
      return { ok: out.ok, permanent: out.permanent, code: out.code, response: out.response };
    }
    try {
      const sid = await sendSms(config.twilio!, p.recipient, p.content);
      return { ok: true, permanent: false, code: 201, response: sid };
    } catch (err) {
      const e = err instanceof SmsSendError ? err : new SmsSendError(String(err), true);
      // Twilio refused it (4xx) for good; no answer (maybeSent) is tried again: at least once.
      const refused = !e.maybeSent && e.twilioCode !== null;
      return { ok: false, permanent: refused, code: null, response: e.message.slice(0, 255), stopped: e.twilioCode === TWILIO_UNSUBSCRIBED };
    }
  }

  async function attempt(m: MessageRow): Promise<void> {
    const start = Date.now();
    const leaseUntil = start + cfg.timeoutMs + 5_000;
    if (!(await repos.outbox.claim(db, m.id, start, leaseUntil))) return;
    const p = await prepare(m, leaseUntil);
    if ("skip" in p) {
      if (p.skip !== "taken over") await repos.outbox.finish(db, m.id, leaseUntil, undefined, { status: "skipped", set: { last_error: p.skip } });
      return;
    }
    const out = await send(m, p);
    const end = Date.now();
    const delay = m.kind === "automation" && m.automation_id !== null ? ((await repos.automations.findById(db, m.automation_id))?.delay_minutes ?? 0) : 0;
    const next = out.ok
      ? { status: "sent" }
      : out.permanent
        ? { status: "failed" }
        : afterFailure(end, Number(m.created_ms) + delay * 60_000 + cfg.retryForMs, cfg.retryBaseMs, Number(m.attempts) + 1);
    await repos.outbox.finish(
      db,
      m.id,
      leaseUntil,
      { attempted_ms: start, duration_ms: end - start, status_code: out.code, error: out.ok ? null : out.response || "failed" },
      { ...next, set: out.ok ? { provider_id: out.response } : {}, log: { channel: m.channel } },
    );
    // After the outcome is recorded: withdrawing cancels the guest's pending messages, this one too otherwise.
    if (out.stopped) await stopTexts(ctx, p.recipient).catch((err) => log.warn({ err }, "recording a STOP failed"));
  }

  async function pass(): Promise<number> {
    let found = 0;
    let failure: unknown;
    for (const channel of channels) {
      const now = Date.now();
      const rate = channel === "email" ? cfg.mailRatePerMinute : cfg.smsRatePerMinute;
      const budget = Math.min(BATCH, rate - (await repos.outbox.attemptsSince(db, channel, now - 60_000)));
      if (budget <= 0) continue;
      // One message per guest at a time: the cap counts what was sent before the next one is taken.
      const guests = new Set<number>();
      const due = (await repos.outbox.due(db, now, budget, [channel])).filter((m) => m.guest_id === null || (!guests.has(m.guest_id) && guests.add(m.guest_id)));
      found += due.length;
      await eachLimited(due, CONCURRENCY, async (m) => {
        try {
          await attempt(m);
        } catch (err) {
          // Reported once the pass has ended (the loop's one line per spell); the message is
          // tried again when its lease ends.
          failure ??= err;
        }
      });
    }
    if (failure !== undefined) throw failure;
    return found;
  }

  return {
    attempt,
    pass,
    close() {
      if (!mailer) sender?.close();
    },
  };
}

/** The worker of a running service: the sender's passes in the outbox loop (src/db/outbox.ts). */
export function startMessageWorker(ctx: Ctx, config: Readonly<Config>, log: BackgroundLog, mailer?: MailSender): OutboxLoop {
  const sender = createMessageSender(ctx, config, log, mailer);
  const loop = startOutboxLoop(config.messages.pollMs, sender.pass, backgroundFailures(log, "message sending"));
  // A message queued and committed by this process is looked at at once; the poll finds the rest.
  const off = onOutboxWrite(ctx.db, "messages", loop.kick);
  return {
    kick: loop.kick,
    async stop() {
      off();
      await loop.stop();
      sender.close();
    },
  };
}
