/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/): the secret is "whsec_" and
 * base64 of random bytes; the signed content is `${webhook-id}.${webhook-timestamp}.${body}`;
 * `webhook-signature` is "v1," and base64 of its HMAC-SHA256 under the decoded secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt (the timestamp is that of the attempt, the id that of the message). */
export function signedHeaders(secret: string, id: string, body: string, at: Date = new Date()): Record<string, string> {
  const ts = Math.floor(at.getTime() / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": signatureOf(secret, id, ts, body) };
}

/** Whether any "v1," signature of a header matches (space-separated list, as the convention allows). */
export function verifySignature(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const expected = Buffer.from(signatureOf(secret, id, Number(timestamp), body));
  return header.split(" ").some((s) => {
    const got = Buffer.from(s);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
