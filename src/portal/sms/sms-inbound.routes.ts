/**
 * Texts guests send back to the service's Twilio number (Twilio's incoming-message webhook: set the
 * number's "A message comes in" to POST https://<PUBLIC_URL host>/sms/inbound). Twilio's opt-out
 * words (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, REVOKE) withdraw the marketing
 * consent of every guest at that number and keep the number from marketing texts; START, UNSTOP
 * and YES let it be texted again (consent is not given back: that takes a new opt-in). Twilio
 * answers the guest itself. Requests are verified with X-Twilio-Signature (HMAC-SHA1 under the
 * auth token of the URL and the sorted form fields, https://www.twilio.com/docs/usage/security).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { restartTexts, stopTexts } from "../../modules/guests/guest-consent.service.js";
import type { PortalDeps } from "../portal-deps.js";
import { bodyOf } from "../portal-request.js";

export const SMS_INBOUND_PATH = "/sms/inbound";
const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE"]);
const START_WORDS = new Set(["START", "UNSTOP", "YES"]);

/** Twilio's signature of a POST to `url` with `params`. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

export function smsInboundRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.post(SMS_INBOUND_PATH, { schema: { hide: true }, bodyLimit: 64 * 1024 }, async (request, reply) => {
    const twilio = deps.config.twilio;
    if (!twilio) return reply.code(404).type("text/plain").send("not configured");
    const params = Object.fromEntries(Object.entries(bodyOf(request)).filter((e): e is [string, string] => typeof e[1] === "string"));
    const given = Buffer.from(String(request.headers["x-twilio-signature"] ?? ""));
    const expected = Buffer.from(twilioSignature(twilio.authToken, `${deps.config.publicUrl}${SMS_INBOUND_PATH}`, params));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      request.log.warn({ event: "sms.inbound.refused" }, "incoming text with a wrong Twilio signature");
      return reply.code(403).type("text/plain").send("wrong signature");
    }
    const from = params.From ?? "";
    const word = (params.Body ?? "").trim().toUpperCase();
    if (/^\+[1-9]\d{6,14}$/.test(from)) {
      if (STOP_WORDS.has(word)) {
        const n = await stopTexts(deps.ctx, from);
        request.log.info({ event: "sms.stop", guests: n }, "a number replied STOP");
      } else if (START_WORDS.has(word)) {
        await restartTexts(deps.ctx, from);
      }
    }
    return reply.type("text/xml").send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });
}
