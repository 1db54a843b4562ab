/**
 * The retention job inside the service: every `intervalMs`, erases the guests of accounts with a
 * retention period who were not seen for it (runRetention: idempotent, one instance at a time on
 * PostgreSQL). Failures (the database away) are logged and tried again at the next interval.
 */
import { type BackgroundLog, backgroundFailures } from "../../db/background-failures.js";
import { type ErasureCtx, runRetention } from "./guest-rights.service.js";

export interface RetentionJob {
  stop(): Promise<void>;
}

export function startRetentionJob(ctx: ErasureCtx, intervalMs: number, log: BackgroundLog): RetentionJob {
  const failures = backgroundFailures(log, "retention job");
  let stopped = false;
  let running: Promise<void> | undefined;
  const run = () => {
    if (stopped || running) return;
    running = runRetention(ctx)
      .then((n) => {
        failures.succeeded();
        if (n > 0) log.info({ erased: n }, "retention: guests erased");
      })
      .catch((err) => failures.failed(err, `it runs again in ${intervalMs} ms`))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(run, Math.min(intervalMs, 10_000));
  const timer = setInterval(run, intervalMs);
  first.unref?.();
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
