/**
 * SMS login (the `Twilio` login type): a 6-digit one-time code texted to the guest, stored only
 * as a keyed hash, valid for config.smsCodeTtlSeconds and for config.smsMaxAttempts guesses.
 * What texts cost is capped from the codes recorded in the database, so the caps hold across
 * restarts and instances: a number receives at most SMS_CODES_PER_WINDOW codes per TTL window and
 * SMS_CODES_PER_DAY per 24 hours (nobody can flood one phone), and a location sends at most
 * config.smsDailyBudgetPerLocation per local day (nobody can run up the bill). The per-address
 * and per-location rates per minute are checked before (PortalRateLimits).
 */
import { randomInt } from "node:crypto";
import type { Config } from "../../config.js";
import type { DB } from "../../db/database.js";
import { fromDbDatetime, toDbDatetime } from "../../db/time.js";
import { localDayBounds } from "../../modules/guests/local-day.js";
import type { LocationRow } from "../../modules/locations/locations.repository.js";
import { translate } from "../../i18n/catalogue.js";
import { portalErrors } from "../portal-errors.js";
import { type PortalSigner, safeEqual } from "../portal-signer.js";
import type { SmsCodeRepository } from "./sms-codes.repository.js";
import { SmsSendError, sendSms } from "../../modules/messages/twilio-client.js";
import { DAY_MS } from "../../durations.js";

export const SMS_CODES_PER_WINDOW = 3;
export const SMS_CODES_PER_DAY = 10;

/** The database and this app's SMS-code repository. */
export interface SmsCtx {
  db: DB;
  smsCodes: SmsCodeRepository;
}

export function smsCodeHash(signer: PortalSigner, locationId: number, phone: string, code: string): string {
  return signer.mac("sms-code", `${locationId}:${phone}:${code}`);
}

const secondsUntil = (t: number, now: Date) => Math.max(1, Math.ceil((t - now.getTime()) / 1000));

/** Creates a code and texts it. Throws a portal error when capped; SmsSendError when Twilio fails. */
export async function sendLoginCode(
  ctx: SmsCtx,
  config: Readonly<Config>,
  signer: PortalSigner,
  location: LocationRow,
  phone: string,
  /** The language of the page the guest asked from: the text is in it. */
  language = "en",
): Promise<void> {
  const { db, smsCodes: smsCodeRepository } = ctx;
  const twilio = config.twilio;
  if (!twilio) throw portalErrors.methodUnavailable();
  const now = new Date();
  const ttl = config.smsCodeTtlSeconds;
  const toNumber = await smsCodeRepository.sentToNumber(
    db,
    phone,
    toDbDatetime(new Date(now.getTime() - ttl * 1000)),
    toDbDatetime(new Date(now.getTime() - DAY_MS)),
  );
  if (toNumber.inWindow >= SMS_CODES_PER_WINDOW) throw portalErrors.smsTooMany(Math.ceil(ttl / 60));
  if (toNumber.inDay >= SMS_CODES_PER_DAY) {
    const oldest = toNumber.oldest ? fromDbDatetime(toNumber.oldest).getTime() : now.getTime();
    throw portalErrors.smsTooManyToday(secondsUntil(oldest + DAY_MS, now));
  }
  const today = localDayBounds(now, location.timezone);
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const id = await smsCodeRepository.insertWithinBudget(
    db,
    {
      location_id: location.id,
      phone_number: phone,
      code_hash: smsCodeHash(signer, location.id, phone, code),
      created_at: toDbDatetime(now),
      expires_at: toDbDatetime(new Date(now.getTime() + ttl * 1000)),
    },
    toDbDatetime(today.start),
    config.smsDailyBudgetPerLocation,
  );
  if (id === undefined) throw portalErrors.smsBudgetSpent(secondsUntil(today.end.getTime(), now));
  const minutes = Math.max(1, Math.round(ttl / 60));
  const body = translate(language, "sms.text", { code, venue: location.name.slice(0, 60), minutes });
  try {
    await sendSms(twilio, phone, body);
  } catch (err) {
    const failure = err instanceof SmsSendError ? err : new SmsSendError(String(err));
    // A text Twilio refused counts against neither the number's caps nor the budget; one that may
    // have gone out (no answer in time) stays counted, so the bill never exceeds the budget.
    if (!failure.maybeSent) await smsCodeRepository.delete(db, id);
    throw failure;
  }
}

/** `message`: the catalogue message telling the guest why (src/i18n). */
export type VerifyResult = { ok: true } | { ok: false; message: { key: string; values?: { left: number } }; expired: boolean };

export async function verifyLoginCode(
  ctx: SmsCtx,
  config: Readonly<Config>,
  signer: PortalSigner,
  locationId: number,
  phone: string,
  code: string,
): Promise<VerifyResult> {
  const { db, smsCodes: smsCodeRepository } = ctx;
  const now = toDbDatetime(new Date());
  const row = await smsCodeRepository.findActive(db, locationId, phone, now);
  const expired: VerifyResult = { ok: false, expired: true, message: { key: "sms.expired" } };
  if (!row) return expired;
  if (!(await smsCodeRepository.takeAttempt(db, row.id, config.smsMaxAttempts))) {
    return { ok: false, expired: true, message: { key: "sms.tooManyWrong" } };
  }
  if (!/^\d{6}$/.test(code) || !safeEqual(row.code_hash, smsCodeHash(signer, locationId, phone, code))) {
    const left = config.smsMaxAttempts - row.attempts - 1;
    return left > 0
      ? { ok: false, expired: false, message: { key: "sms.wrongCode", values: { left } } }
      : { ok: false, expired: true, message: { key: "sms.tooManyWrong" } };
  }
  return (await smsCodeRepository.markUsed(db, row.id, now)) ? { ok: true } : expired;
}
