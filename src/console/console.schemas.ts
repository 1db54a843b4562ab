/**
 * The console's own routes (/console/api/..., /console/preview): their parameters and answers. Like
 * every API route's, these schemas validate the call, type the handler and are the console page's
 * types too (console-ui imports them with `import type`, so no server code enters its bundle).
 */
import { Type } from "@sinclair/typebox";
import { F } from "../http/validation.js";
import { OVERVIEW_MAX_DAYS, Overview } from "../modules/analytics/analytics.schemas.js";
import { LOGIN_METHODS } from "../modules/campaigns/campaign-payload.js";

const Success = Type.Literal("success");

/** Guests per page of the console's guest list. */
export const GUEST_PAGE = 50;
/** The longest text the guest search takes. */
export const GUEST_SEARCH_MAX = 100;

export const SignInParams = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254, description: "The e-mail address the owner or sub-user signs in with." }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

/** Who is signed in. */
export const ConsoleUser = Type.Object({
  email: Type.String(),
  role: Type.Union([Type.Literal("owner"), Type.Literal("sub-user")]),
  readonly: Type.Boolean(),
  account_id: Type.Integer(),
  csrf_token: Type.String({ description: "Sent back with every write (x-csrf-token header)." }),
});

/** What the service is configured with, as the console's pages need it. */
export const ConsoleSettings = Type.Object({
  public_url: Type.String(),
  public_url_warning: Type.String({ description: "Why PUBLIC_URL will not work for gateways (localhost, loopback); \"\" when it is fine." }),
  radius: Type.Object(
    { host: Type.String(), auth_port: Type.Integer(), acct_port: Type.Integer() },
    { description: "Where gateways send RADIUS: RADIUS_PUBLIC_HOST, else the host of PUBLIC_URL." },
  ),
  radsec: Type.Object({ enabled: Type.Boolean(), port: Type.Integer() }),
  model_families: Type.Record(Type.String(), Type.String(), { description: "The gateway family of each device model." }),
  providers: Type.Object({
    facebook: Type.Boolean(),
    twitter: Type.Boolean(),
    instagram: Type.Boolean(),
    linkedin: Type.Boolean(),
    sms: Type.Boolean(),
  }),
  controller_types: Type.Array(Type.String()),
  webhook_events: Type.Array(Type.String()),
  mail: Type.Boolean({ description: "Outgoing e-mail is configured (SMTP_URL)." }),
});

export const SignInResponse = Type.Object({ status: Success, user: ConsoleUser });
export const MeResponse = Type.Object({ status: Success, user: ConsoleUser, settings: ConsoleSettings });
export const NoParams = Type.Object({});
export const SignOutResponse = Type.Object({ status: Success });

export const OverviewParams = Type.Object({
  location_id: Type.Optional(F.idOrZero("One location; 0 or none for every location the caller may see.")),
  from_date: F.date("First day (in each location's own time zone)."),
  to_date: F.date(`Last day, at most ${OVERVIEW_MAX_DAYS - 1} days after from_date.`),
});
export const OverviewResponse = Type.Object({ status: Success, data: Overview });

export const GuestSearchParams = Type.Object({
  q: Type.Optional(F.text(GUEST_SEARCH_MAX, "Part of a name, e-mail or phone number, or a MAC in any notation.")),
  before_id: Type.Optional(F.id("The next page: next_before_id of the previous answer.")),
});

const GuestFields = {
  id: Type.Integer(),
  full_name: Type.String(),
  email: Type.String(),
  phone_number: Type.String(),
  social_network: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const GuestEntry = Type.Object({ ...GuestFields, macs: Type.Array(Type.String()) });
export const GuestSearchResponse = Type.Object({
  status: Success,
  data: Type.Array(GuestEntry),
  next_before_id: Type.Union([Type.Integer(), Type.Null()], { description: "Pass as before_id for the next page; null on the last page." }),
});

export const GuestParams = Type.Object({ id: F.id("The guest.") });

/** A guest's record as stored (other columns of the row are sent as they are). */
export const GuestRecord = Type.Object(
  {
    ...GuestFields,
    radius_session_total_time: Type.Integer(),
    radius_total_bandwidth_input: Type.Integer(),
    radius_total_bandwidth_output: Type.Integer(),
    gender: Type.String(),
    locale: Type.String(),
    marketing_opt_in: Type.Integer(),
    marketing_opt_in_at: Type.Union([Type.String(), Type.Null()]),
    marketing_version: Type.String(),
  },
  { additionalProperties: true },
);

export const GuestLogin = Type.Object({
  id: Type.Integer(),
  logged_at: Type.String(),
  login_type: Type.String(),
  client_mac: Type.String(),
  location_id: Type.Integer(),
  location_name: Type.Union([Type.String(), Type.Null()]),
  browser_name: Type.String(),
  os_name: Type.String(),
  device_type: Type.String(),
  terms_accepted: Type.Integer(),
  terms_version: Type.String({ description: "The version of the terms text shown; its text is in texts." }),
  marketing_opt_in: Type.Integer(),
  marketing_version: Type.String({ description: "The version of the marketing consent text shown; its text is in texts." }),
});

export const ConsentText = Type.Object({
  version: Type.String(),
  kind: Type.Union([Type.Literal("terms"), Type.Literal("marketing")]),
  text: Type.String({ description: "The text as the guest read it (terms are HTML)." }),
  saved_at: Type.String({ description: "When a campaign first carried the text (UTC)." }),
});

export const GuestDetail = Type.Object({
  guest: GuestRecord,
  macs: Type.Array(Type.Object({ guest_id: Type.Integer(), client_mac: Type.String(), last_login_at: Type.String() })),
  logins: Type.Array(GuestLogin, { description: "The latest 100, newest first." }),
  texts: Type.Array(ConsentText, { description: "The consent texts of the versions above, where kept." }),
});
export const GuestResponse = Type.Object({ status: Success, data: GuestDetail });

export const RotateIdentifierParams = Type.Object({ password: Type.String({ maxLength: 1024, description: "The owner's password, asked again." }) });
export const RotateIdentifierResponse = Type.Object({ status: Success, identifier: Type.String({ description: "The new identifier, shown this once." }) });

export const LocationRadiusParams = Type.Object({ location_id: F.id("One of the account's live locations.") });

export const AttributeRow = Type.Object({ name: Type.String(), value: Type.Union([Type.Integer(), Type.String()]) });
export const DialectAttributes = Type.Object({
  dialect: Type.String(),
  families: Type.Array(Type.String(), { description: "The gateway families answered in this dialect: those of the location's devices, or all." }),
  devices: Type.Integer({ description: "How many of the location's devices get these attributes." }),
  attributes: Type.Array(AttributeRow),
  filter_roles: Type.Array(
    Type.Object({ family: Type.String(), attribute: Type.String(), value: Type.String() }),
    { description: "With content_filter on: the role each family of this dialect that takes one gets beside the attributes (Filter-Id, Aruba-User-Role, Mikrotik-Address-List)." },
  ),
});
export const LocationRadius = Type.Object({
  location_id: Type.Integer(),
  devices: Type.Integer(),
  daily_bandwidth_cap: Type.Integer(),
  dialects: Type.Array(DialectAttributes),
});
export const LocationRadiusResponse = Type.Object({ status: Success, data: LocationRadius });

/**
 * The campaign preview: the editor's unsaved fields, taken leniently (a value the campaign's own
 * schema would refuse is left out of the preview rather than refused: the editor says why beside
 * the field). Texts longer than a campaign's are cut to its limits.
 */
const Loose = (description: string) => Type.Optional(Type.String({ description }));
export const PreviewParams = Type.Object({
  campaign_id: Type.Optional(F.id("The saved campaign the edits apply to; none for a new one.")),
  title_text: Loose("Title."),
  footer_text: Loose("Footer."),
  ssid: Loose("SSID."),
  custom_terms: Loose("Terms (HTML)."),
  text_color: Loose("Text colour, RRGGBB."),
  background: Loose("Background colour, RRGGBB."),
  button_text: Loose("Button text."),
  default_language: Loose("Default language tag."),
  translations: Type.Optional(Type.Unknown({ description: "Texts per language (JSON), as create-or-update-campaign takes them." })),
  marketing_text: Loose("Marketing consent text."),
  terms_required: Loose("1 or 0."),
  marketing_opt_in: Loose("1 or 0."),
  logo: Loose("The new logo as a data URL; \"\" removes it; absent keeps the saved one."),
  preview_language: Loose("The language to show."),
  ...Object.fromEntries(LOGIN_METHODS.map((m) => [`login_${m}`, Loose(`1 or 0: whether the page offers ${m} login.`)])),
});
/** The login page (HTML), as the portal renders it (text or the bytes of a cached page). */
export const PreviewResponse = Type.Unsafe<string | Uint8Array>({ type: "string", description: "The login page (HTML)." });
