/** What the message tests share: an app's e-mail settings for a test SMTP server, and waiting for a message to be sent. */
import assert from "node:assert/strict";
import type { TestApp } from "./app.js";
import type { SmtpServer } from "./smtp-server.js";

export function mailEnv(smtp: SmtpServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Guest WiFi <wifi@example.com>",
    MESSAGE_RETRY_BASE_MS: "50",
    MESSAGE_POLL_MS: "20",
    MESSAGE_TIMEOUT_MS: "5000",
    ...extra,
  };
}

/** Waits until message `id` is no longer pending (the worker runs beside), and answers its log entry. */
export async function settled(t: TestApp, id: number, timeoutMs = 20_000, kind = "test"): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.call("GET", "message-list", { kind, per_page: 1000 });
    const m = r.body.data.find((x: any) => x.message_id === id);
    if (m && m.status !== "pending") return m;
    if (Date.now() > end) assert.fail(`message ${id} still pending: ${JSON.stringify(m)}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

