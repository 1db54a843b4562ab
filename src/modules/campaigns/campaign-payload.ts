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
 *   "logo": "data:image/png;base64,...",                      // "" for none; campaign-logo.ts
 *   "default_language": "en",                                 // the language of the texts above
 *   "translations": { "fr": { "title_text": "Bienvenue", "footer_text": "...", "custom_terms": "<p>...</p>",
 *                             "marketing_text": "...", "button_text": "..." } },
 *   "button_text": ""                                         // the connect buttons' label; "": built-in
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
  /** The language (a shipped language tag, src/i18n/languages.ts) of title_text, footer_text, custom_terms, marketing_text, button_text. */
  default_language: string;
  /** The connect buttons' label; "" for the built-in one in the page's language. */
  button_text: string;
  /** The campaign's texts in its other languages, by language tag; a text left out is shown in the default language. */
  translations: Record<string, CampaignTranslation>;
}

/** The campaign's own texts in one more language. */
export interface CampaignTranslation {
  title_text?: string;
  footer_text?: string;
  custom_terms?: string;
  marketing_text?: string;
  button_text?: string;
}

export const TRANSLATED_FIELDS = ["title_text", "footer_text", "custom_terms", "marketing_text", "button_text"] as const;

/** The translations of a stored payload: objects of strings, by language tag; anything else left out. */
function readTranslations(raw: unknown, defaultLanguage: string): Record<string, CampaignTranslation> {
  const out: Record<string, CampaignTranslation> = {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  for (const [lang, texts] of Object.entries(raw as Record<string, unknown>)) {
    if (lang === defaultLanguage || !texts || typeof texts !== "object" || Array.isArray(texts)) continue;
    const t: CampaignTranslation = {};
    for (const f of TRANSLATED_FIELDS) {
      const v = (texts as Record<string, unknown>)[f];
      if (typeof v === "string" && v !== "") t[f] = v;
    }
    out[lang] = t;
  }
  return out;
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
    default_language: typeof p.default_language === "string" && p.default_language !== "" ? p.default_language : "en",
    button_text: typeof p.button_text === "string" ? p.button_text : "",
    translations: readTranslations(p.translations, typeof p.default_language === "string" && p.default_language !== "" ? p.default_language : "en"),
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
