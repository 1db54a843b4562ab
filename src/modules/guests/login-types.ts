/**
 * Login types: the specification's social_network codes, the analytics series names (in their
 * fixed order), and the campaign login method each comes from. PPuser is a guest's device joining
 * the secure SSID by itself with its Passpoint credential (docs/passpoint.md): no campaign method,
 * and no guest of its own (the login is the guest's who got the credential).
 */
import type { LoginMethod } from "../campaigns/campaign-payload.js";

export const LOGIN_TYPES = [
  { code: "FBUser", series: "Facebook", method: "facebook" },
  { code: "Cuser", series: "Custom", method: "custom" },
  { code: "IGuser", series: "Instagram", method: "instagram" },
  { code: "TWuser", series: "Twitter", method: "twitter" },
  { code: "Twilio", series: "SMS", method: "sms" },
  { code: "FWuser", series: "Click-through", method: "clickthrough" },
  { code: "Muser", series: "E-mail", method: "email" },
  { code: "LIuser", series: "LinkedIn", method: "linkedin" },
  { code: "Vuser", series: "Voucher", method: "voucher" },
  { code: "PPuser", series: "Passpoint", method: undefined },
] as const satisfies readonly { code: string; series: string; method: LoginMethod | undefined }[];

/** The login type of a device that joined with its Passpoint credential. */
export const PASSPOINT_LOGIN_TYPE: LoginType = "PPuser";

export type LoginType = (typeof LOGIN_TYPES)[number]["code"];

export const LOGIN_TYPE_CODES = LOGIN_TYPES.map((t) => t.code) as LoginType[];

export function loginTypeOfMethod(method: LoginMethod): LoginType {
  return LOGIN_TYPES.find((t) => t.method === method)!.code;
}
