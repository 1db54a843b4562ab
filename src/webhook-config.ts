/**
 * The webhooks' settings (where they may go, who sends them, timeouts and retries), read by
 * config.ts with its readers so that every variable fails with the same kind of message.
 */
import type { ConfigReaders } from "./config-readers.js";

export interface WebhookConfig {
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE: targets on private and loopback addresses allowed (link-local never). */
    allowPrivate: boolean;
    /** WEBHOOK_WORKER: this instance sends deliveries (the outbox is filled either way). */
    worker: boolean;
    /** Bound on one HTTP attempt (WEBHOOK_TIMEOUT_MS). */
    timeoutMs: number;
    /** First retry after this long, doubling each time up to an hour (WEBHOOK_RETRY_BASE_MS). */
    retryBaseMs: number;
    /** A delivery still failing this long after its event is marked failed (WEBHOOK_RETRY_FOR_MS, 24 h). */
    retryForMs: number;
    /** How often the outbox is read when idle (WEBHOOK_POLL_MS). */
    pollMs: number;
    /**
     * PostgreSQL: longest a delivery waits for older transactions to end before it is sent anyway
     * (WEBHOOK_ORDER_WAIT_MS, 30 s); see the repository's `settled`.
     */
    orderWaitMs: number;
  };
}

export function webhookConfig(read: ConfigReaders): WebhookConfig {
  return {
    webhooks: {
      allowPrivate: read.bool("WEBHOOK_ALLOW_PRIVATE", false),
      worker: read.bool("WEBHOOK_WORKER", true),
      timeoutMs: read.int("WEBHOOK_TIMEOUT_MS", 10_000, 100, 120_000),
      retryBaseMs: read.int("WEBHOOK_RETRY_BASE_MS", 10_000, 10, 3_600_000),
      retryForMs: read.int("WEBHOOK_RETRY_FOR_MS", 24 * 3_600_000, 100, 30 * 24 * 3_600_000),
      pollMs: read.int("WEBHOOK_POLL_MS", 1000, 10, 60_000),
      orderWaitMs: read.int("WEBHOOK_ORDER_WAIT_MS", 30_000, 0, 3_600_000),
    },
  };
}
