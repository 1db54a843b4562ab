import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";
import { LOGO_MAX_BYTES } from "./campaign-logo.js";

const Success = Type.Literal("success");

/** The longest login_options string we parse: the eight methods with their values fit in far less. */
export const LOGIN_OPTIONS_MAX_CHARS = 2000;

/**
 * A create or update may carry a logo (200 KiB decoded: 273 KB of base64, some more when a form
 * percent-encodes its + / and =) besides 20,000 characters of terms: more than BODY_LIMIT's default.
 */
export const CAMPAIGN_BODY_LIMIT = 1024 * 1024;

export const CampaignWriteParams = Type.Object({
  identifier: F.identifier(),
  campaign_id: Type.Optional(F.id("Own campaign to update; omit to create a new one.")),
  template_campaign_id: Type.Optional(
    F.id("Required on create: a built-in template or one of the caller's own campaigns to copy."),
  ),
  name: F.text(100, "Name of the campaign: any script, spaces and punctuation, no control characters.", { format: "name" }),
  ssid: Type.Optional(F.text(32, "WiFi network name shown on the login page: 1 to 32 bytes of UTF-8 as IEEE 802.11 allows, no control characters.", { format: "ssid" })),
  text_color: Type.Optional(F.text(6, "Login page text colour, hex without #.", { format: "hex-color" })),
  background: Type.Optional(F.text(6, "Login page background colour, hex without #.", { format: "hex-color" })),
  footer_text: Type.Optional(F.text(1000, "Footer text of the login page.")),
  title_text: Type.Optional(F.text(255, "Title of the login page.")),
  custom_terms: Type.Optional(
    F.text(20000, "Terms shown on the login page. HTML is stored as given and sanitized when rendered."),
  ),
  redirect_url: Type.Optional(
    F.text(2048, "Absolute http(s) URL guests are sent to after login; empty clears it.", { format: "http-url-or-empty" }),
  ),
  terms_required: Type.Optional(F.flag("1: every login method asks the guest to accept the terms (custom_terms) before connecting.")),
  marketing_opt_in: Type.Optional(F.flag("1: the login page shows an unticked, optional marketing opt-in with marketing_text.")),
  marketing_text: Type.Optional(F.text(1000, "Text of the marketing opt-in box (plain text).")),
  default_language: Type.Optional(
    Type.String({ maxLength: 16, description: "Language of title_text, footer_text, custom_terms, marketing_text and button_text: en, es, fr, de, it, pt, nl, pl, tr, ar, zh-Hans or ja." }),
  ),
  button_text: Type.Optional(F.text(60, "Label of the connect buttons; empty: the built-in one in the guest's language.")),
  // A JSON string in a form, an object in a JSON body; checked key by key (campaign-translations.ts).
  translations: Type.Optional(
    Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
      description:
        "The campaign's texts in its other languages, replacing the ones stored: an object (or its JSON text) of language codes to " +
        "{title_text, footer_text, custom_terms, marketing_text, button_text}; a text left out shows in default_language.",
      examples: ['{"fr":{"title_text":"Bienvenue","custom_terms":"<p>Soyez sympa.</p>"}}'],
    }),
  ),
  // No maxLength here: the check measures the decoded size and says so in its own sentence.
  logo: Type.Optional(
    Type.String({
      description:
        `Logo shown above the title: a data URL of a PNG, JPEG or WebP image (data:image/png;base64,...), at most ${LOGO_MAX_BYTES} bytes ` +
        "once decoded; the content must be of the type declared. Empty removes the logo; omitted keeps it.",
    }),
  ),
  login_facebook: Type.Optional(F.flag("Facebook login on (1) or off (0).")),
  login_custom: Type.Optional(F.flag("Custom form login on (1) or off (0).")),
  login_twitter: Type.Optional(F.flag("Twitter login on (1) or off (0).")),
  login_instagram: Type.Optional(F.flag("Instagram login on (1) or off (0).")),
  login_linkedin: Type.Optional(F.flag("LinkedIn login on (1) or off (0).")),
  // A JSON string in a form, an object in a JSON body; checked key by key by the service.
  login_options: Type.Optional(
    Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
      description:
        "The complete set of login methods, overriding every login_*: an object (or its JSON text) with keys " +
        "facebook, custom, twitter, instagram, linkedin, email, sms, clickthrough, voucher and values 0, 1, true or false; " +
        "methods not named are off.",
      examples: ['{"custom":1,"email":true}'],
    }),
  ),
});

export const CampaignRecord = Type.Object({
  id: Type.Integer(),
  campaign_id: Type.Integer(),
  name: Type.String(),
  ssid: Type.String(),
  payload: Type.String({ description: "The campaign's JSON payload (docs/campaign-payload.md)." }),
  date_created: Type.String(),
  last_modified: Type.String(),
  deleted: Type.Integer(),
  campaign_filename: Type.String(),
  campaign_url: Type.String({ description: "Where the portal serves this campaign's login page." }),
  template: Type.Integer({ description: "1 for a built-in template (readable by everyone, writable by nobody)." }),
  text_color: Type.String(),
  background: Type.String(),
  footer_text: Type.String(),
  title_text: Type.String(),
  custom_terms: Type.String(),
  redirect_url: Type.String(),
  login_facebook: Type.String(),
  login_custom: Type.String(),
  login_twitter: Type.String(),
  login_instagram: Type.String(),
  login_linkedin: Type.String(),
  login_options: Type.Object({
    facebook: Type.Boolean(),
    custom: Type.Boolean(),
    twitter: Type.Boolean(),
    instagram: Type.Boolean(),
    linkedin: Type.Boolean(),
    email: Type.Boolean(),
    sms: Type.Boolean(),
    clickthrough: Type.Boolean(),
    voucher: Type.Boolean(),
  }),
  terms_required: Type.Integer({ description: "1 when every login asks for acceptance of the terms." }),
  marketing_opt_in: Type.Integer({ description: "1 when the page offers the (unticked) marketing opt-in." }),
  marketing_text: Type.String(),
  default_language: Type.String({ description: "The language of the texts above (docs/languages.md)." }),
  button_text: Type.String({ description: "Label of the connect buttons; empty: the built-in one." }),
  translations: Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
    description: "The texts in the campaign's other languages: language tag to title_text, footer_text, custom_terms, marketing_text, button_text.",
  }),
  logo_url: Type.String({ description: "Where the portal serves the campaign's logo (the payload's logo); empty when it has none." }),
});

export const CampaignWriteResponse = Type.Object({
  status: Success,
  message: Type.String(),
  campaign_id: Type.Integer(),
  campaign_filename: Type.String(),
  campaign_url: Type.String(),
  data: CampaignRecord,
  warnings: Type.Optional(Type.Array(Type.String(), { description: "What the campaign saved with but should change: colours below WCAG contrast." })),
});

export const GetCampaignParams = Type.Object({
  identifier: F.identifier(),
  campaign_ids: F.idList("One campaign id or up to 10 comma-separated ids."),
});

export const CampaignListParams = Type.Object({ identifier: F.identifier() });

export const CampaignsResponse = Type.Object({ status: Success, data: Type.Array(CampaignRecord) });

export const DeleteCampaignParams = Type.Object({ identifier: F.identifier(), campaign_id: F.id("Own campaign to delete.") });

export const AssignCampaignParams = Type.Object({
  identifier: F.identifier(),
  location_id: F.idOrZero("Location; 0 removes the campaign as default wherever it is set."),
  campaign_id: F.idOrZero("Campaign to make the location's default; 0 clears the location's default."),
});

export const MessageResponse = Type.Object({ status: Success, message: Type.String() });
