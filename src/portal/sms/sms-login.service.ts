/**
 * SMS login (the `Twilio` login type): a 6-digit one-time code texted to the guest, stored only
 * as a keyed hash, valid for config.smsCodeTtlSeconds and for config.smsMaxAttempts guesses.
 * A number receives at most SMS_CODES_PER_WINDOW codes per TTL window, so the portal cannot be
 * used to flood one phone (the per-client login limit bounds floods across numbers).
 */
import { randomInt } from "node:crypto";
import type { Config } from "../../config.js";
import type { DB } from "../../db/database.js";
import { toDbDatetime } from "../../db/time.js";
import type { LocationRow } from "../../modules/locations/locations.repository.js";
import { portalErrors } from "../portal-errors.js";
import { type PortalSigner, safeEqual } from "../portal-signer.js";
import { smsCodeRepository } from "./sms-codes.repository.js";
import { SmsSendError, sendSms } from "./twilio-client.js";

export const SMS_CODES_PER_WINDOW = 3;

export function smsCodeHash(signer: PortalSigner, locationId: number, phone: string, code: string): string {
  return signer.mac("sms-code", `${locationId}:${phone}:${code}`);
}

/** Creates a code and texts it. Throws a portal error when capped; SmsSendError when Twilio fails. */
export async function sendLoginCode(
  db: DB,
  config: Readonly<Config>,
  signer: PortalSigner,
  location: LocationRow,
  phone: string,
): Promise<void> {
  const twilio = config.twilio;
  if (!twilio) throw portalErrors.methodUnavailable();
  const now = new Date();
  const ttl = config.smsCodeTtlSeconds;
  const since = toDbDatetime(new Date(now.getTime() - ttl * 1000));
  if ((await smsCodeRepository.countSince(db, phone, since)) >= SMS_CODES_PER_WINDOW) {
    throw portalErrors.smsTooMany(Math.ceil(ttl / 60));
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const id = await smsCodeRepository.insert(db, {
    location_id: location.id,
    phone_number: phone,
    code_hash: smsCodeHash(signer, location.id, phone, code),
    created_at: toDbDatetime(now),
    expires_at: toDbDatetime(new Date(now.getTime() + ttl * 1000)),
  });
  const minutes = Math.max(1, Math.round(ttl / 60));
  const body = `${code} is your WiFi code for ${location.name.slice(0, 60)}. It expires in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  try {
    await sendSms(twilio, phone, body);
  } catch (err) {
    // A code the guest never received must not count against the number's cap.
    await smsCodeRepository.delete(db, id);
    throw err instanceof SmsSendError ? err : new SmsSendError(String(err));
  }
}

export type VerifyResult = { ok: true } | { ok: false; message: string; expired: boolean };

export async function verifyLoginCode(
  db: DB,
  config: Readonly<Config>,
  signer: PortalSigner,
  locationId: number,
  phone: string,
  code: string,
): Promise<VerifyResult> {
  const now = toDbDatetime(new Date());
  const row = await smsCodeRepository.findActive(db, locationId, phone, now);
  const expired: VerifyResult = { ok: false, expired: true, message: "This code has expired. Please ask for a new one." };
  if (!row) return expired;
  if (!(await smsCodeRepository.takeAttempt(db, row.id, config.smsMaxAttempts))) {
    return { ok: false, expired: true, message: "Too many wrong codes. Please ask for a new one." };
  }
  if (!/^\d{6}$/.test(code) || !safeEqual(row.code_hash, smsCodeHash(signer, locationId, phone, code))) {
    const left = config.smsMaxAttempts - row.attempts - 1;
    return left > 0
      ? { ok: false, expired: false, message: `That code is not right. ${left} attempt${left === 1 ? "" : "s"} left.` }
      : { ok: false, expired: true, message: "Too many wrong codes. Please ask for a new one." };
  }
  return (await smsCodeRepository.markUsed(db, row.id, now)) ? { ok: true } : expired;
}
