/**
 * What guests type into the login forms, checked. Errors are keyed by the input's id on the page
 * so the page can show each next to its field.
 */
import type { ConsentSettings } from "../modules/campaigns/campaign-payload.js";
import type { GuestProfileInput } from "../modules/guests/guest-activity.service.js";

/** Input id to the catalogue key (src/i18n) of the sentence shown under it. */
export type FormErrors = Record<string, string>;

export interface FormResult {
  errors: FormErrors;
  /** What was ticked (set by the route from parseConsent). */
  consent?: ConsentChoice;
  /** Identity within the login type; "" when the form gives none (the device is then the identity). */
  identity: string;
  profile: GuestProfileInput;
  /** Values to show again when the page is re-rendered with errors. */
  values: Record<string, string>;
}

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/u;

export function field(body: Record<string, unknown>, name: string, max = 254): string {
  const v = body[name];
  return typeof v === "string" ? v.trim().slice(0, max) : "";
}

export function validEmail(s: string): boolean {
  return s.length <= 254 && EMAIL_RE.test(s);
}

/** A phone number in E.164 (`+` and 8 to 15 digits), spaces, dots, dashes and brackets removed; or "". */
export function e164(s: string): string {
  const compact = s.replace(/[\s().-]/g, "");
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : "";
}

export function maskPhone(e164Number: string): string {
  return `${e164Number.slice(0, 3)}${"•".repeat(Math.max(0, e164Number.length - 5))}${e164Number.slice(-2)}`;
}

/** The custom form: the fields the campaign asks for, all required. Identity: e-mail, else phone. */
export function parseCustomForm(body: Record<string, unknown>, asks: { name: boolean; email: boolean; phone: boolean }): FormResult {
  const errors: FormErrors = {};
  const name = field(body, "name", 255);
  const email = field(body, "email").toLowerCase();
  const phoneRaw = field(body, "phone", 32);
  const phone = e164(phoneRaw);
  if (asks.name && name === "") errors["custom-name"] = "form.nameRequired";
  if (asks.email && !validEmail(email)) errors["custom-email"] = "form.emailInvalid";
  if (asks.phone && !phone) errors["custom-phone"] = "form.phoneInvalid";
  const profile: GuestProfileInput = {};
  if (asks.name) profile.full_name = name;
  if (asks.email) profile.email = email;
  if (asks.phone) profile.phone_number = phone;
  return {
    errors,
    identity: asks.email ? email : asks.phone ? phone : "",
    profile,
    values: { "custom-name": name, "custom-email": email, "custom-phone": phoneRaw },
  };
}

export function parseEmailForm(body: Record<string, unknown>): FormResult {
  const email = field(body, "email").toLowerCase();
  const errors: FormErrors = validEmail(email) ? {} : { "email-email": "form.emailInvalid" };
  return { errors, identity: email, profile: { email }, values: { "email-email": email } };
}

export function parseClickThrough(_body: Record<string, unknown>): FormResult {
  // The terms box of click-through is always required: checked with the other consent boxes.
  return { errors: {}, identity: "", profile: {}, values: {} };
}

/** What the guest ticked on a login form (whether that opts in to marketing is marketingDecision's, modules/guests). */
export interface ConsentChoice {
  termsAccepted: boolean;
  marketingTicked: boolean;
}

/** A choice as the signed state and cookie carry it, and back. */
export function packConsent(c: ConsentChoice): [number, number] {
  return [c.termsAccepted ? 1 : 0, c.marketingTicked ? 1 : 0];
}

export function unpackConsent(c: [number, number] | undefined): ConsentChoice | undefined {
  return Array.isArray(c) ? { termsAccepted: c[0] === 1, marketingTicked: c[1] === 1 } : undefined;
}

/** The catalogue key of the sentence under an unticked required terms box. */
export const TERMS_ERROR = "form.termsRequired";

/**
 * The consent boxes of the form with id prefix `prefix` (custom, email, sms, voucher, ct): an error
 * under `<prefix>-terms` when the campaign requires the terms and the box is not ticked. The
 * marketing box is never required; what it is worth is marketingDecision's (a tick on a page that did
 * not offer it counts for nothing).
 */
export function parseConsent(body: Record<string, unknown>, settings: ConsentSettings, prefix: string, termsRequired = settings.terms_required): { errors: FormErrors; choice: ConsentChoice } {
  const termsAccepted = field(body, "accept_terms") !== "";
  const marketingTicked = field(body, "marketing_opt_in") !== "";
  const errors: FormErrors = termsRequired && !termsAccepted ? { [`${prefix}-terms`]: TERMS_ERROR } : {};
  return { errors, choice: { termsAccepted, marketingTicked } };
}
