/**
 * Twilio's Messages API: `POST {baseUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP
 * Basic auth (account SID and auth token), form fields To, From, Body. The base URL comes from
 * configuration so a test (or a Twilio-compatible provider) can stand in for api.twilio.com.
 */
import type { Config } from "../../config.js";

export type TwilioConfig = NonNullable<Config["twilio"]>;

export class SmsSendError extends Error {}

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
    throw new SmsSendError(`Twilio unreachable: ${(err as Error).message}`);
  }
  const text = await res.text();
  let json: { sid?: unknown; code?: unknown; message?: unknown } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = {};
  }
  if (!res.ok) throw new SmsSendError(`Twilio answered ${res.status}: ${String(json.code ?? "")} ${String(json.message ?? "")}`.trim());
  return typeof json.sid === "string" ? json.sid : "";
}
