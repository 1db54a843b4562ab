/** Campaigns: create from a template or an own campaign, partial update, soft delete, default of a location. */
import type { Static } from "@sinclair/typebox";
import { randomBytes } from "node:crypto";
import { nowDatetime } from "../../db/time.js";
import { inTransaction } from "../../db/transaction.js";
import { domainErrors } from "../../domain-errors.js";
import { campaignLogoUrl, campaignPageUrl } from "../../portal-urls.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { logoFileName, storedLogo } from "./campaign-logo.js";
import { type CampaignPayload, type ConsentSettings, LOGIN_METHODS, type LoginMethod, type SpecLoginMethod, parsePayload } from "./campaign-payload.js";
import type { CampaignRow } from "./campaigns.repository.js";
import { consentTextsOf } from "./consent-texts.js";
import type { CampaignRecord } from "./campaigns.schemas.js";

const flag = (on: boolean) => (on ? "1" : "0");

export function toCampaignRecord(row: CampaignRow, publicUrl: string): Static<typeof CampaignRecord> {
  const p = parsePayload(row.payload);
  const o = p.login_options;
  return {
    id: row.id,
    campaign_id: row.id,
    name: row.name,
    ssid: row.ssid,
    payload: row.payload,
    date_created: row.date_created,
    last_modified: row.last_modified,
    deleted: row.deleted,
    campaign_filename: row.filename,
    campaign_url: campaignPageUrl(publicUrl, row.filename),
    template: row.account_id === null ? 1 : 0,
    text_color: p.text_color,
    background: p.background,
    footer_text: p.footer_text,
    title_text: p.title_text,
    custom_terms: p.custom_terms,
    redirect_url: p.redirect_url,
    login_facebook: flag(o.facebook),
    login_custom: flag(o.custom),
    login_twitter: flag(o.twitter),
    login_instagram: flag(o.instagram),
    login_linkedin: flag(o.linkedin),
    login_options: Object.fromEntries(LOGIN_METHODS.map((m) => [m, o[m]])) as Static<typeof CampaignRecord>["login_options"],
    terms_required: p.consent.terms_required ? 1 : 0,
    marketing_opt_in: p.consent.marketing_opt_in ? 1 : 0,
    marketing_text: p.consent.marketing_text,
    default_language: p.default_language,
    button_text: p.button_text,
    translations: p.translations as Record<string, Record<string, string>>,
    logo_url: campaignLogoUrlOf(row.filename, p.logo, publicUrl),
  };
}

/** Where the portal serves the campaign's logo (`logo` of its payload), or "" when it has none. */
export function campaignLogoUrlOf(filename: string, logo: string, base: string): string {
  const parsed = storedLogo(logo);
  return parsed ? campaignLogoUrl(base, filename, logoFileName(parsed)) : "";
}

/** Filenames are "c-" plus 12 url-safe characters and ".html", or a template's name; nothing else is looked up. */
const FILENAME_RE = /^[A-Za-z0-9_.-]{1,100}$/;

/** The live campaign whose page is `filename` (its campaign_filename), of any account, or undefined. */
export async function findLiveCampaignByFilename(ctx: Ctx, filename: string): Promise<CampaignRow | undefined> {
  // Anything else (NUL bytes included, which PostgreSQL refuses in text) cannot be a filename.
  if (!FILENAME_RE.test(filename)) return undefined;
  return ctx.repos.campaigns.findLiveByFilename(ctx.db, filename);
}

/** A campaign by id, deleted ones included (a login page opened before a delete can still be used). */
export async function findCampaign(ctx: Ctx, id: number): Promise<CampaignRow | undefined> {
  return ctx.repos.campaigns.findById(ctx.db, id);
}

/** The campaign a location shows: its default while that is live, else the first built-in template. */
export async function campaignShownAt(ctx: Ctx, location: LocationRow): Promise<CampaignRow> {
  if (location.default_campaign_id !== null) {
    const c = await ctx.repos.campaigns.findById(ctx.db, location.default_campaign_id);
    if (c && c.deleted === 0) return c;
  }
  return ctx.repos.campaigns.firstTemplate(ctx.db);
}

type TextField = "ssid" | "footer_text" | "title_text" | "custom_terms" | "redirect_url" | "text_color" | "background";

/** What a create or update changes in the payload it starts from; anything not given keeps its value. */
export interface CampaignChanges extends Partial<Pick<CampaignPayload, TextField>> {
  /** The complete set of login methods (login_options): replaces every method. */
  loginMethods?: Record<LoginMethod, boolean>;
  /** Methods switched on or off one by one (login_*), when loginMethods is not given. */
  loginFlags?: Partial<Record<SpecLoginMethod, boolean>>;
  /** Consent settings given; the others keep their values. */
  consent?: Partial<ConsentSettings>;
  /** The logo's data URL (checked by the route with parseLogo), or "" to remove it. */
  logo?: string;
  default_language?: string;
  button_text?: string;
  /** Replaces every stored translation (checked by the route with parseTranslations). */
  translations?: CampaignPayload["translations"];
}

const TEXT_FIELDS = ["ssid", "footer_text", "title_text", "custom_terms", "redirect_url"] as const;

/** The changes over the base payload. A page without any login method is refused (domain error no-login-method). */
export function composePayload(base: CampaignPayload, changes: CampaignChanges): CampaignPayload {
  const next: CampaignPayload = { ...base, login_options: { ...base.login_options } };
  for (const key of TEXT_FIELDS) if (changes[key] !== undefined) next[key] = changes[key];
  // Colours are stored lower case so that the portal's CSS and comparisons see one spelling.
  if (changes.text_color !== undefined) next.text_color = changes.text_color.toLowerCase();
  if (changes.background !== undefined) next.background = changes.background.toLowerCase();
  const consent = Object.fromEntries(Object.entries(changes.consent ?? {}).filter(([, v]) => v !== undefined));
  next.consent = { ...base.consent, ...consent };
  if (changes.logo !== undefined) next.logo = changes.logo;
  if (changes.default_language !== undefined) next.default_language = changes.default_language;
  if (changes.button_text !== undefined) next.button_text = changes.button_text.trim();
  if (changes.translations !== undefined) next.translations = changes.translations;
  // The default language's texts are the payload's own fields, never a translation.
  if (next.translations[next.default_language]) {
    const { [next.default_language]: _own, ...others } = next.translations;
    next.translations = others;
  }
  next.login_options = changes.loginMethods ?? { ...next.login_options, ...changes.loginFlags };
  // A page without any way to log in would strand every guest at the access point.
  if (!Object.values(next.login_options).some(Boolean)) throw domainErrors.noLoginMethod();
  return next;
}

/**
 * Creates a campaign of the account as a copy of `from` (a template or an own campaign) with the
 * changes, or, given `update` (an own live campaign), changes that one.
 */
export async function saveCampaign(
  ctx: Ctx,
  accountId: number,
  name: string,
  changes: CampaignChanges,
  target: { update: CampaignRow } | { copyOf: CampaignRow },
): Promise<{ row: CampaignRow; created: boolean }> {
  const base = "update" in target ? target.update : target.copyOf;
  const payload = composePayload(parsePayload(base.payload), changes);
  const now = nowDatetime();
  const values = { name, ssid: payload.ssid, payload: JSON.stringify(payload), last_modified: now };
  const campaigns = ctx.repos.campaigns;
  // The texts by version with the campaign, so that a guest's recorded version always finds its text.
  return inTransaction(ctx.db, async (trx) => {
    await ctx.repos.consentTexts.keep(trx, consentTextsOf(payload), now);
    if ("update" in target) {
      await campaigns.update(trx, base.id, values);
      return { row: (await campaigns.findById(trx, base.id))!, created: false };
    }
    const id = await campaigns.insert(trx, {
      ...values,
      account_id: accountId,
      // 72 random bits: unguessable and, in practice, never repeated (the column is unique anyway).
      filename: `c-${randomBytes(9).toString("base64url")}.html`,
      date_created: now,
      deleted: 0,
    });
    return { row: (await campaigns.findById(trx, id))!, created: true };
  });
}

/** Soft delete of an own live campaign; it stops being the default of any location. */
export async function deleteCampaign(ctx: Ctx, accountId: number, campaign: CampaignRow): Promise<void> {
  const now = nowDatetime();
  await inTransaction(ctx.db, async (trx) => {
    await ctx.repos.campaigns.softDelete(trx, campaign.id, now);
    await ctx.repos.locations.clearDefaultCampaign(trx, accountId, campaign.id, now);
  });
}

/**
 * With a location: the campaign (or, null, none) becomes that location's default. Without one
 * (location_id 0): the campaign stops being the default of every location of the account.
 */
export async function assignCampaign(ctx: Ctx, accountId: number, location: LocationRow | null, campaign: CampaignRow | null): Promise<void> {
  const now = nowDatetime();
  if (location) await ctx.repos.locations.setDefaultCampaign(ctx.db, location.id, campaign?.id ?? null, now);
  else if (campaign) await ctx.repos.locations.clearDefaultCampaign(ctx.db, accountId, campaign.id, now);
}
