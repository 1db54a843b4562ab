/**
 * The campaign payload: a JSON document holding everything the login page needs.
 * Structure (documented in docs/campaign-payload.md):
 * {
 *   "version": 1,
 *   "ssid": "CafeWiFi",
 *   "title_text": "Welcome", "footer_text": "...",
 *   "text_color": "333333", "background": "ffffff",        // hex, no leading #
 *   "custom_terms": "<p>HTML terms</p>",                      // sanitized when rendered
 *   "redirect_url": "https://example.com/",                   // where guests go after login
 *   "login_options": { "facebook": false, "custom": true, "twitter": false, "instagram": false,
 *                      "linkedin": false, "email": false, "sms": false, "clickthrough": false },
 *   "custom_fields": { "name": true, "email": true, "phone": false }, // what the custom form asks
 *   "consent": { "terms_required": true, "marketing_opt_in": true,        // docs/guest-data.md
 *                "marketing_text": "Send me offers by e-mail." },
 *   "logo": "data:image/png;base64,..."                       // "" for none; campaign-logo.ts
 * }
 */

export const LOGIN_METHODS = [
  "facebook",
  "custom",
  "twitter",
  "instagram",
  "linkedin",
  "email",
  "sms",
  "clickthrough",
  "voucher",
] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/** The login_* request parameters of the specification, each naming a method. */
export const SPEC_LOGIN_PARAMS = ["facebook", "custom", "twitter", "instagram", "linkedin"] as const;
export type SpecLoginMethod = (typeof SPEC_LOGIN_PARAMS)[number];

export interface CampaignPayload {
  version: 1;
  ssid: string;
  title_text: string;
  footer_text: string;
  text_color: string;
  background: string;
  custom_terms: string;
  redirect_url: string;
  login_options: Record<LoginMethod, boolean>;
  custom_fields: { name: boolean; email: boolean; phone: boolean };
  consent: ConsentSettings;
  /** A PNG, JPEG or WebP image as a base64 data URL (checked by campaign-logo.ts when written); "" for none. */
  logo: string;
}

/** What the login page asks the guest to accept: the terms (required to connect), and an unticked marketing opt-in. */
export interface ConsentSettings {
  /** Every login method shows a required "I accept the terms" box (click-through always does). */
  terms_required: boolean;
  /** An unticked, optional box with marketing_text. */
  marketing_opt_in: boolean;
  marketing_text: string;
}

export const DEFAULT_MARKETING_TEXT = "I would like to receive news and offers by e-mail or text message. I can unsubscribe at any time.";

export function noLogins(): Record<LoginMethod, boolean> {
  return Object.fromEntries(LOGIN_METHODS.map((m) => [m, false])) as Record<LoginMethod, boolean>;
}

/** Reads a stored payload, filling anything missing so the portal never meets a partial one. */
export function parsePayload(raw: string): CampaignPayload {
  let p: Partial<CampaignPayload> = {};
  try {
    p = JSON.parse(raw) as Partial<CampaignPayload>;
  } catch {
    p = {};
  }
  return {
    version: 1,
    ssid: p.ssid ?? "",
    title_text: p.title_text ?? "",
    footer_text: p.footer_text ?? "",
    text_color: p.text_color ?? "222222",
    background: p.background ?? "ffffff",
    custom_terms: p.custom_terms ?? "",
    redirect_url: p.redirect_url ?? "",
    login_options: { ...noLogins(), ...(p.login_options ?? {}) },
    custom_fields: { name: true, email: true, phone: false, ...(p.custom_fields ?? {}) },
    consent: {
      terms_required: p.consent?.terms_required === true,
      marketing_opt_in: p.consent?.marketing_opt_in === true,
      marketing_text: typeof p.consent?.marketing_text === "string" && p.consent.marketing_text !== "" ? p.consent.marketing_text : DEFAULT_MARKETING_TEXT,
    },
    logo: typeof p.logo === "string" ? p.logo : "",
  };
}

/** Parsed payloads of campaign rows: rows come from a cache and are shared, so their payloads can be too. */
const parsedOfRow = new WeakMap<object, CampaignPayload>();

/**
 * The payload of a campaign row, parsed once per row object (a row read again is a new object,
 * parsed again). Shared between requests: read it, never change it (parsePayload gives a copy to edit).
 */
export function sharedPayload(row: { payload: string }): CampaignPayload {
  let p = parsedOfRow.get(row);
  if (!p) {
    p = parsePayload(row.payload);
    parsedOfRow.set(row, p);
  }
  return p;
}
