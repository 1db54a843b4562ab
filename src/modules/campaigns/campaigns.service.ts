/** Campaigns: create from a template or an own campaign, partial update, read, soft delete. */
import type { Static } from "@sinclair/typebox";
import { randomBytes } from "node:crypto";
import type { DB } from "../../db/database.js";
import { nowDatetime } from "../../db/time.js";
import { type ErrorBag, msg } from "../../errors.js";
import { campaignPageUrl } from "../../portal/portal-urls.js";
import { locationRepository } from "../locations/locations.repository.js";
import { applyLoginFlags, parseLoginOptions } from "./campaign-login-options.js";
import { type CampaignPayload, LOGIN_METHODS, parsePayload } from "./campaign-payload.js";
import { type CampaignRow, campaignRepository } from "./campaigns.repository.js";
import type { CampaignRecord, CampaignWriteParams } from "./campaigns.schemas.js";

type CampaignWrite = Static<typeof CampaignWriteParams>;

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
  };
}

const TEXT_FIELDS = ["ssid", "footer_text", "title_text", "custom_terms", "redirect_url"] as const;

/**
 * The given fields over the base payload; everything not given keeps the base's value. Fields that
 * failed validation are left out (their value may not even be a string): the call fails anyway.
 */
function applyFields(base: CampaignPayload, p: CampaignWrite, bag: ErrorBag): CampaignPayload {
  const next: CampaignPayload = { ...base, login_options: { ...base.login_options } };
  const usable = (key: keyof CampaignWrite) => p[key] !== undefined && !bag.has(key);
  for (const key of TEXT_FIELDS) if (usable(key)) next[key] = p[key]!;
  // Colours are stored lower case so that the portal's CSS and comparisons see one spelling.
  if (usable("text_color")) next.text_color = p.text_color!.toLowerCase();
  if (usable("background")) next.background = p.background!.toLowerCase();
  const fromJson = parseLoginOptions(p.login_options, bag);
  next.login_options = fromJson ?? applyLoginFlags(next.login_options, p, bag);
  return next;
}

/** The campaign a new one is copied from: a built-in template or one of the account's live campaigns. */
async function templateSource(db: DB, accountId: number, p: CampaignWrite, bag: ErrorBag): Promise<CampaignRow | undefined> {
  const param = "template_campaign_id";
  if (bag.has(param)) return undefined;
  if (p.template_campaign_id === undefined) {
    bag.add(param, msg.required(param));
    return undefined;
  }
  const [row] = await campaignRepository.findReadable(db, accountId, [p.template_campaign_id]);
  if (!row || row.deleted === 1) {
    bag.add(param, msg.invalid(param));
    return undefined;
  }
  return row;
}

/**
 * Create (no campaign_id) or update (campaign_id of an own live campaign). campaign_id wins when
 * both ids are given: template_campaign_id only matters when a campaign is being created.
 */
export async function saveCampaign(
  db: DB,
  accountId: number,
  p: CampaignWrite,
  bag: ErrorBag,
): Promise<{ row: CampaignRow; created: boolean }> {
  let base: CampaignRow | undefined;
  if (bag.has("campaign_id")) {
    // An update with an unusable id: nothing to compare the other fields against.
  } else if (p.campaign_id !== undefined) {
    base = await campaignRepository.findOwnedLive(db, accountId, p.campaign_id);
    if (!base) bag.add("campaign_id", msg.invalid("campaign_id"));
  } else {
    base = await templateSource(db, accountId, p, bag);
  }
  const payload = applyFields(parsePayload(base?.payload ?? "{}"), p, bag);
  // A page without any way to log in would strand every guest at the access point.
  if (base && !bag.has("login_options") && !Object.values(payload.login_options).some(Boolean)) {
    bag.add("login_options", msg.oneLoginMethod("login_options"));
  }
  bag.throwIfAny();
  const now = nowDatetime();
  const values = { name: p.name, ssid: payload.ssid, payload: JSON.stringify(payload), last_modified: now };
  if (p.campaign_id !== undefined) {
    await campaignRepository.update(db, p.campaign_id, values);
    return { row: (await campaignRepository.findById(db, p.campaign_id))!, created: false };
  }
  const id = await campaignRepository.insert(db, {
    ...values,
    account_id: accountId,
    // 72 random bits: unguessable and, in practice, never repeated (the column is unique anyway).
    filename: `c-${randomBytes(9).toString("base64url")}.html`,
    date_created: now,
    deleted: 0,
  });
  return { row: (await campaignRepository.findById(db, id))!, created: true };
}

/** Readable campaigns (own, deleted included, and templates) in the order asked; any other id is an error. */
export async function readCampaigns(db: DB, accountId: number, ids: number[], param: string, bag: ErrorBag): Promise<CampaignRow[]> {
  if (ids.length === 0) return [];
  const rows = await campaignRepository.findReadable(db, accountId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (ids.some((id) => !byId.has(id))) {
    bag.add(param, msg.invalid(param));
    return [];
  }
  return ids.map((id) => byId.get(id)!);
}

/** Soft delete of an own live campaign; it stops being the default of any location. */
export async function deleteCampaign(db: DB, accountId: number, id: number, bag: ErrorBag): Promise<void> {
  if (!bag.has("campaign_id") && !(await campaignRepository.findOwnedLive(db, accountId, id))) {
    bag.add("campaign_id", msg.invalid("campaign_id"));
  }
  bag.throwIfAny();
  const now = nowDatetime();
  await db.transaction().execute(async (trx) => {
    await campaignRepository.softDelete(trx, id, now);
    await locationRepository.clearDefaultCampaign(trx, accountId, id, now);
  });
}
