/**
 * `guestwifi demo [--email E] [--days N] [--seed N]`: writeDemo in one transaction. SIGINT or
 * SIGTERM stops it between two writes and rolls the transaction back (a second signal exits at
 * once: the database discards an uncommitted transaction either way); SIGKILL leaves nothing
 * either, as nothing is committed before the end.
 */
import { recordCliAudit } from "../modules/audit/audit.service.js";
import { type Command, type CommandSpec, type Flags, UsageError, commandHelp } from "./command-line.js";
import { writeDemo } from "./demo.js";
import { EMAIL_RE, withDb } from "./with-db.js";

const spec: CommandSpec = {
  name: "demo",
  summary: "fill the database with realistic sample data",
  description: [
    "Fills an account with four venues in four time zones, a campaign each, access points, and N days of",
    "guests, logins, RADIUS reconnects and the data guests used, all in one transaction: an interrupted run writes nothing.",
    "An account that already has the demo venues is left as it is: a second run writes nothing (no second",
    "set of venues, no more activity); use another --email, or a fresh database, for fresh data.",
    "On SQLite the run holds the database's write lock until it ends (seconds for 90 days).",
  ].join("\n"),
  options: {
    email: { value: "E", help: "the account to fill, created when missing (default demo@example.com)" },
    days: { value: "N", help: "days of activity up to now, 1 to 365 (default 90)" },
    seed: { value: "N", help: "seed of the activity, a whole number (default 42)" },
  },
};

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

function options(flags: Flags): { email: string; days: number; seed: number } {
  const refuse = (message: string) => new UsageError(message, commandHelp(spec), spec.name);
  const email = typeof flags.email === "string" ? flags.email : "demo@example.com";
  if (!EMAIL_RE.test(email)) throw refuse("--email must be an e-mail address");
  const whole = (v: string | true | undefined, fallback: number) => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v === undefined ? fallback : Number.NaN);
  const days = whole(flags.days, 90);
  if (!Number.isSafeInteger(days) || days < 1 || days > 365) throw refuse("--days must be a whole number from 1 to 365");
  const seed = whole(flags.seed, 42);
  if (!Number.isSafeInteger(seed)) throw refuse("--seed must be a whole number");
  return { email, days, seed };
}

async function run(flags: Flags): Promise<void> {
  const { email, days, seed } = options(flags);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(SIGNAL_EXIT[signal]);
    stop.abort(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const outcome = await withDb(async (ctx) => {
      const done = await writeDemo(ctx, { email, days, seed, signal: stop.signal, onProgress: (m) => process.stdout.write(`${m}\n`) });
      if (done.written) await recordCliAudit(ctx, done.accountId, "demo", {}, { email, days, seed });
      return done;
    }, { create: true });
    if (!outcome.written) {
      process.stdout.write(`${email} already has the demo venues (${outcome.venues}); nothing was written.\n`);
      return;
    }
    if (outcome.identifier) process.stdout.write(`created account ${email}; identifier: ${outcome.identifier}\n`);
    process.stdout.write(`demo data written: ${JSON.stringify(outcome.summary)}\n`);
  } catch (err) {
    if (!stop.signal.aborted) throw err;
    process.stderr.write("guestwifi demo: interrupted; nothing was written.\n");
    process.exitCode = SIGNAL_EXIT[String(stop.signal.reason)] ?? 130;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

export const demoCommand: Command = { spec, run };
