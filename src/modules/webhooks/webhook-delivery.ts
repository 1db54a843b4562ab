/**
 * Sends the outbox (webhook_deliveries): at least once, in order per webhook, signed the Standard
 * Webhooks way, retried with exponential backoff until `retryForMs` after the event, then failed.
 *
 * - Order: a webhook's deliveries are sent one after the other, oldest first; the next is sent only
 *   once the one before was delivered or failed for good (a retry waits, and those after it too).
 * - Several instances: a run of a webhook's oldest pending deliveries is taken with a lease (a
 *   conditional UPDATE only one instance wins) for the time its attempts may take and a margin; an
 *   instance killed mid-run leaves a lease that runs out, and another (or the restarted one) sends
 *   those not recorded as delivered again, with the same webhook-id.
 * - Nothing is lost: the outbox row was committed with the change; it leaves "pending" only when
 *   an answer was recorded.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Config } from "../../config.js";
import { type BackgroundLog, backgroundFailures } from "../../db/background-failures.js";
import type { DB } from "../../db/database.js";
import { type OutboxLoop, afterFailure, onOutboxWrite, startOutboxLoop } from "../../db/outbox.js";
import { guardedLookup, literalRefusal } from "../../outbound-address.js";
import { webhookRule } from "./webhook-target.js";
import { signedHeaders } from "./webhook-signature.js";
import { type DueDelivery, type RunOutcome, type WebhookRepository, createWebhookRepository } from "./webhooks.repository.js";
import { messageId } from "./webhooks.service.js";

type WebhookConfig = Config["webhooks"];

interface Outcome {
  statusCode: number | null;
  error: string | null;
}

/** One POST, bounded by the timeout; the answer's body is read and dropped. Redirects are not followed. */
export function postWebhook(cfg: WebhookConfig, url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return resolve({ statusCode: null, error: "invalid url" });
    }
    const rule = webhookRule(cfg);
    const why = literalRefusal(u, rule);
    if (why) return resolve({ statusCode: null, error: `refused: ${why}`.slice(0, 255) });
    const send = u.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
    const req = send(
      u,
      {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "guestwifi-webhooks", "content-length": Buffer.byteLength(body), ...headers },
        lookup: guardedLookup(rule) as never,
        timeout: cfg.timeoutMs,
      },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => done({ statusCode: res.statusCode ?? null, error: null }));
        res.on("error", (err) => done({ statusCode: res.statusCode ?? null, error: err.message.slice(0, 255) }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${cfg.timeoutMs} ms`));
    }, cfg.timeoutMs);
    req.on("timeout", () => req.destroy(new Error(`timed out after ${cfg.timeoutMs} ms`)));
    req.on("error", (err) => done({ statusCode: null, error: err.message.slice(0, 255) }));
    req.on("close", () => clearTimeout(timer));
    req.end(body);
  });
}

export type WebhookWorker = OutboxLoop;

/** A delivery sent after WEBHOOK_ORDER_WAIT_MS is logged at most this often. */
const ORDER_WARNING_EVERY_MS = 60_000;

/** First look again after a head waited for older transactions (ms); doubled while it waits. */
const SETTLE_FIRST_MS = 5;

/**
 * While a due head waits for older transactions to end (dueHeads' `settled`), the worker reads again
 * soon rather than at its poll: those transactions are usually a few milliseconds from their commit,
 * and may queue no event that would wake the worker. The wait doubles from SETTLE_FIRST_MS up to the
 * poll interval while heads keep waiting (a long transaction elsewhere), and starts again short once
 * none does.
 */
function settleWatch(pollMs: number, kick: () => void) {
  let wait = SETTLE_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;
  return {
    waitFor(waiting: boolean): void {
      if (!waiting) {
        wait = SETTLE_FIRST_MS;
        return;
      }
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        kick();
      }, wait);
      timer.unref?.();
      wait = Math.min(wait * 2, pollMs);
    },
    stop(): void {
      clearTimeout(timer);
    },
  };
}

/** Webhooks served in one pass, each with its due head. */
const BATCH = 32;
/**
 * Deliveries of one webhook sent one after the other from one claim: a burst of events (a venue's
 * login rush) is then sent at the receiver's pace, not at one claim, one read of the heads and one
 * commit per event.
 */
const RUN = 50;
/** Margin of a lease over the attempt it covers. */
const LEASE_MARGIN_MS = 5_000;

export function startWebhookWorker(db: DB, cfg: WebhookConfig, log: BackgroundLog, repo: WebhookRepository = createWebhookRepository()): WebhookWorker {
  const inFlight = new Set<number>();
  let lastOrderWarning = Number.NEGATIVE_INFINITY;

  /**
   * Sends a run of the webhook's deliveries in order, stopping at the first that fails (it waits
   * on its backoff, and those after it behind it). An attempt starts only while it can end within
   * the lease; the rest are given back for the next pass.
   */
  async function sendRun(head: DueDelivery): Promise<void> {
    const start = Date.now();
    const leaseUntil = start + 2 * cfg.timeoutMs + LEASE_MARGIN_MS;
    const run = await repo.claimRun(db, head, RUN, start, leaseUntil, start - cfg.orderWaitMs);
    const outcomes: RunOutcome[] = [];
    let k = 0;
    while (k < run.length && Date.now() + cfg.timeoutMs + LEASE_MARGIN_MS <= leaseUntil) {
      const d = run[k++];
      const began = Date.now();
      const id = messageId(d.id);
      const out = await postWebhook(cfg, head.url, signedHeaders(head.secret, id, d.payload, new Date(began)), d.payload);
      const end = Date.now();
      const ok = out.statusCode !== null && out.statusCode >= 200 && out.statusCode < 300;
      const error = ok ? null : (out.error ?? `HTTP ${out.statusCode}`);
      const next = ok ? { status: "delivered" as const } : afterFailure(end, Number(d.created_ms) + cfg.retryForMs, cfg.retryBaseMs, d.attempts + 1);
      outcomes.push({ id: d.id, attempt: { attempted_ms: began, duration_ms: end - began, status_code: out.statusCode, error }, next });
      if (!ok) break;
    }
    if (run.length > 0) await repo.finishRun(db, leaseUntil, outcomes, run.slice(k).map((d) => d.id));
  }

  /**
   * Sends the due heads together; an attempt that could not be claimed or recorded (the database
   * busy) fails the pass once they have all ended: the loop reports it and reads again after its
   * poll interval. A delivery whose outcome was not recorded is sent again when its lease ends.
   */
  async function pass(): Promise<number> {
    const now = Date.now();
    const heads = (await repo.dueHeads(db, now, BATCH, now - cfg.orderWaitMs)).filter((d) => !inFlight.has(d.webhook_id));
    const due = heads.filter((d) => d.settled);
    settling.waitFor(heads.length > due.length);
    const overdue = due.find((d) => d.overdue);
    // WEBHOOK_ORDER_WAIT_MS=0 is the operator's choice not to wait: nothing to warn about.
    if (overdue && cfg.orderWaitMs > 0 && now - lastOrderWarning >= ORDER_WARNING_EVERY_MS) {
      lastOrderWarning = now;
      log.warn(
        { job: "webhook delivery", deliveryId: overdue.id, waitedMs: now - overdue.created_ms },
        `webhook delivery: a delivery waited WEBHOOK_ORDER_WAIT_MS (${cfg.orderWaitMs} ms) for an older transaction on the PostgreSQL server to end and is sent anyway; an event that transaction queues will arrive after it (see pg_stat_activity for long transactions; at most one such line a minute)`,
      );
    }
    let failure: unknown;
    await Promise.all(
      due.map(async (d) => {
        inFlight.add(d.webhook_id);
        try {
          await sendRun(d);
        } catch (err) {
          failure ??= err;
        } finally {
          inFlight.delete(d.webhook_id);
        }
      }),
    );
    if (failure !== undefined) throw failure;
    return due.length;
  }

  const loop = startOutboxLoop(cfg.pollMs, pass, backgroundFailures(log, "webhook delivery"));
  const settling = settleWatch(cfg.pollMs, () => loop.kick());
  // A committed event of this process is delivered at once; the poll finds other instances' events and retries.
  const off = onOutboxWrite(db, "webhook_deliveries", loop.kick);
  return {
    kick: loop.kick,
    stop() {
      off();
      settling.stop();
      return loop.stop();
    },
  };
}
