/**
 * `guestwifi mail test --to E`: sends a test e-mail through the configured SMTP server at once and
 * says how it went. `guestwifi quick-report --send-now [--email E] [--weekly]`: sends every quick
 * report that is on (or the one of that address) now, for the day before (or the last week),
 * whatever the hour, and says how each went. Both go through the outbox like every message (logged
 * in message-list; a send that fails is retried by the running service).
 */
import type { Config } from "../config.js";
import type { Ctx } from "../modules/context.js";
import { createMessageSender } from "../modules/messages/message-worker.js";
import { outcomeOf, queueTestMail } from "../modules/messages/messages.service.js";
import { periodAt, queueQuickReport, quickReportRecipients } from "../modules/messages/quick-report.service.js";
import { type Command, type CommandSpec, UsageError, commandHelp } from "./command-line.js";
import { EMAIL_RE, withDb } from "./with-db.js";

const mailTestSpec: CommandSpec = {
  name: "mail test",
  summary: "send a test e-mail through SMTP_URL now",
  description: "Sends a test e-mail to the address given, through the configured SMTP server (SMTP_URL, MAIL_FROM,\nDKIM when configured), and prints the server's answer. Exit code 1 when it was not accepted.",
  options: { to: { value: "E", required: true, help: "where to send it" } },
};

const quickReportSpec: CommandSpec = {
  name: "quick-report",
  summary: "send the quick reports now",
  description:
    "With --send-now, sends the quick report of the day before (--weekly: of the last week) to every sub-user and\n" +
    "owner who has it on, or only to --email, whatever the hour, and prints how each went.",
  options: {
    "send-now": { required: true, help: "send at once" },
    email: { value: "E", help: "only the report of this recipient" },
    weekly: { help: "the weekly report instead of the daily one" },
  },
};

const quiet = { warn() {}, info() {} };

/** Sends the messages now, in this process, and prints how each went. Returns how many were not sent. */
async function sendAndReport(ctx: Ctx, config: Readonly<Config>, ids: { id: number; to: string }[]): Promise<number> {
  const sender = createMessageSender(ctx, config, quiet);
  let failed = 0;
  try {
    for (const { id, to } of ids) {
      const m = await ctx.repos.outbox.find(ctx.db, id);
      if (m) await sender.attempt(m);
      const done = await outcomeOf(ctx, id, config.messages.timeoutMs + 10_000);
      if (done?.status === "sent") {
        process.stdout.write(`sent to ${to}: ${done.provider_id ?? ""}\n`);
      } else {
        failed++;
        const why = done?.last_error ?? "no answer";
        process.stdout.write(
          done?.status === "pending" ? `not sent to ${to} yet (${why}); the running service tries again\n` : `not sent to ${to}: ${done?.status ?? "gone"} (${why})\n`,
        );
      }
    }
  } finally {
    sender.close();
  }
  return failed;
}

export const mailTestCommand: Command = {
  spec: mailTestSpec,
  async run(flags) {
    const to = String(flags.to);
    if (!EMAIL_RE.test(to)) throw new UsageError("--to must be an e-mail address", commandHelp(mailTestSpec), mailTestSpec.name);
    const failed = await withDb(async (ctx, config) => {
      if (!config.mail) throw new Error("e-mail is not configured: set SMTP_URL and MAIL_FROM");
      return sendAndReport(ctx, config, [{ id: await queueTestMail(ctx, config, null, to), to }]);
    });
    if (failed > 0) process.exitCode = 1;
  },
};

export const quickReportCommand: Command = {
  spec: quickReportSpec,
  async run(flags) {
    const email = typeof flags.email === "string" ? flags.email : undefined;
    if (email !== undefined && !EMAIL_RE.test(email)) throw new UsageError("--email must be an e-mail address", commandHelp(quickReportSpec), quickReportSpec.name);
    const failed = await withDb(async (ctx, config) => {
      if (!config.mail) throw new Error("e-mail is not configured: set SMTP_URL and MAIL_FROM");
      const now = new Date();
      const recipients = await quickReportRecipients(ctx, email);
      if (recipients.length === 0) {
        process.stdout.write(email ? `nobody with the quick report on has the address ${email}\n` : "nobody has the quick report on\n");
        return email ? 1 : 0;
      }
      const ids: { id: number; to: string }[] = [];
      for (const r of recipients) {
        const frequency = flags.weekly ? "weekly" : "daily";
        const id = await queueQuickReport(ctx, config, { ...r, frequency }, periodAt(frequency, now, r.locations[0].timezone), now, true);
        if (id !== undefined) ids.push({ id, to: r.email });
      }
      return sendAndReport(ctx, config, ids);
    });
    if (failed > 0) process.exitCode = 1;
  },
};
