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


let guestSeq = 0;

/**
 * A guest's login through recordLogin (the portal's and RADIUS's one way in), on a page that asked
 * about marketing: `optIn` is the guest's tick.
 */
export async function loginGuest(
  t: TestApp,
  locationId: number,
  opts: { optIn: boolean; email?: string; name?: string; phone?: string; locale?: string; birthdate?: string; clientMac?: string; at?: Date; identity?: string },
): Promise<number> {
  const { recordLogin } = await import("../../src/modules/guests/guest-activity.service.js");
  const n = ++guestSeq;
  const email = opts.email ?? `guest${n}-${Date.now()}@example.org`;
  const r = await recordLogin(t.db, {
    accountId: t.accountId,
    locationId,
    timezone: "America/Chicago",
    campaignId: 0,
    deviceId: null,
    loginType: opts.phone && !opts.email ? "Twilio" : "Cuser",
    identity: opts.identity ?? (opts.phone && !opts.email ? opts.phone : email),
    profile: {
      ...(opts.phone && !opts.email ? {} : { email }),
      full_name: opts.name ?? "Ada Lovelace",
      ...(opts.phone ? { phone_number: opts.phone } : {}),
      ...(opts.locale ? { locale: opts.locale } : {}),
      ...(opts.birthdate ? { birthdate: opts.birthdate } : {}),
    },
    clientMac: opts.clientMac ?? "",
    userAgent: "",
    at: opts.at,
    consent: { termsAccepted: true, marketingOffered: true, marketingTicked: opts.optIn, termsVersion: "t1", marketingVersion: "m1" },
  });
  return r.guestId;
}

/** The app's messages (every kind), oldest first. */
export async function messagesOf(t: TestApp, params: Record<string, unknown> = {}): Promise<any[]> {
  const r = await t.call("GET", "message-list", { per_page: 1000, ...params });
  assert.equal(r.statusCode, 200, JSON.stringify(r.body));
  return r.body.data;
}
