/**
 * Twilio's Messages API: `POST {baseUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP
 * Basic auth (account SID and auth token), form fields To, From, Body. The base URL comes from
 * configuration so a test (or a Twilio-compatible provider) can stand in for api.twilio.com.
 */
import type { Config } from "../../config.js";

/** Twilio's error for a number that replied STOP (https://www.twilio.com/docs/api/errors/21610). */
export const TWILIO_UNSUBSCRIBED = 21610;

/** Failures before a connection existed: the request cannot have reached Twilio. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

export type TwilioConfig = NonNullable<Config["twilio"]>;

export class SmsSendError extends Error {
  /** True when the request may have reached Twilio (no answer, a dropped connection): it is then counted as sent. */
  constructor(
    message: string,
    readonly maybeSent = false,
    /** Twilio's error code when it answered with one (21610: the number replied STOP). */
    readonly twilioCode: number | null = null,
  ) {
    super(message);
  }
}

/** Sends one text message; resolves with Twilio's message SID. */
export async function sendSms(cfg: TwilioConfig, to: string, body: string): Promise<string> {
  const url = `${cfg.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(cfg.accountSid)}/Messages.json`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ To: to, From: cfg.from, Body: body }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: unknown } }).cause;
    const neverSent = typeof cause?.code === "string" && NOT_CONNECTED.has(cause.code);
    throw new SmsSendError(`Twilio ${neverSent ? "unreachable" : "did not answer"}: ${(err as Error).message}`, !neverSent);
  }
  // A body cut short after a success still means the message was accepted.
  const text = await res.text().catch(() => "");
  let json: { sid?: unknown; code?: unknown; message?: unknown } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = {};
  }
  if (!res.ok) {
    const code = typeof json.code === "number" ? json.code : null;
    throw new SmsSendError(`Twilio answered ${res.status}: ${String(json.code ?? "")} ${String(json.message ?? "")}`.trim(), false, code);
  }
  return typeof json.sid === "string" ? json.sid : "";
}
