/**
 * The messages that come from the calendar rather than from an event: quick reports (after
 * QUICK_REPORT_HOUR, local), absence reminders and birthday wishes (at each automation's send_time,
 * local to each location). Every MESSAGE_SCHEDULE_INTERVAL_MS; every instance may run it: a run of
 * an automation at a location on a local day is claimed in the database (automation_runs) in the
 * transaction that queues its messages, and each message has a dedupe key, so nothing is queued
 * twice, and a run cut short by a crash is rolled back whole and done again.
 */
import type { Config } from "../../config.js";
import { type BackgroundLog, backgroundFailures } from "../../db/background-failures.js";
import { listOf } from "../../db/list-column.js";
import { toDbDatetime } from "../../db/time.js";
import { transaction } from "../../db/transaction.js";
import type { Ctx } from "../context.js";
import { addDays, localDay, zonedInstant } from "../guests/local-day.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { AutomationRow } from "./automations.repository.js";
import { queueDueQuickReports } from "./quick-report.service.js";


async function locationsOf(ctx: Ctx, a: AutomationRow): Promise<LocationRow[]> {
  const ids = listOf(a.location_ids).map(Number);
  return ids.length === 0 ? ctx.repos.locations.listLive(ctx.db, a.account_id) : ctx.repos.locations.findOwnedLive(ctx.db, a.account_id, ids);
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** One automation at one location for its local today, if its send time has come and nobody ran it yet. Returns messages queued. */
async function runAt(ctx: Ctx, a: AutomationRow, loc: LocationRow, now: Date): Promise<number> {
  const today = localDay(now, loc.timezone);
  const [hh, mm] = a.send_time.split(":").map(Number);
  if (now < zonedInstant(today, hh * 3600 + mm * 60, loc.timezone)) return 0;
  return transaction(ctx.db, async (trx) => {
    if (!(await ctx.repos.automations.claimRun(trx, a.id, loc.id, today))) return 0;
    const at = toDbDatetime(now);
    if (a.trigger === "absence") return ctx.repos.outbox.enqueueAbsence(trx, a, loc.id, addDays(today, -a.absence_days), at, now.getTime());
    const monthDay = today.slice(5);
    const days = monthDay === "02-28" && !isLeap(Number(today.slice(0, 4))) ? ["02-28", "02-29"] : [monthDay];
    return ctx.repos.outbox.enqueueBirthday(trx, a, loc.id, days, today.slice(0, 4), at, now.getTime());
  });
}

/** Absence and birthday runs that are due. Returns the messages queued. */
export async function runScheduledAutomations(ctx: Ctx, now: Date = new Date()): Promise<number> {
  let n = 0;
  for (const a of await ctx.repos.automations.activeScheduled(ctx.db)) {
    for (const loc of await locationsOf(ctx, a)) n += await runAt(ctx, a, loc, now);
  }
  return n;
}

export interface MessageSchedule {
  /** Runs a pass now (tests, the command line); resolves when it is done. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startMessageSchedule(ctx: Ctx, config: Readonly<Config>, log: BackgroundLog): MessageSchedule {
  const failures = backgroundFailures(log, "message schedule");
  let stopped = false;
  let running: Promise<void> | undefined;
  const pass = async () => {
    const reports = await queueDueQuickReports(ctx, config);
    const automations = await runScheduledAutomations(ctx);
    failures.succeeded();
    if (reports + automations > 0) log.info({ reports, automations }, "scheduled messages queued");
  };
  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= pass()
      .catch((err) => failures.failed(err, `it runs again in ${config.messages.scheduleIntervalMs} ms`))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const first = setTimeout(run, Math.min(config.messages.scheduleIntervalMs, 5_000));
  const timer = setInterval(run, config.messages.scheduleIntervalMs);
  first.unref?.();
  timer.unref?.();
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
