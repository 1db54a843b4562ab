/**
 * A campaign's payload as the portal's pages render it: with the address its logo is served at
 * (portal-logo.routes.ts) instead of the logo itself, so that a page stays small, the image is
 * fetched once per phone (it is immutable at that address), and the rendered page can be cached.
 */
import { logoFileName, storedLogo } from "../modules/campaigns/campaign-logo.js";
import { type CampaignPayload, sharedPayload } from "../modules/campaigns/campaign-payload.js";
import type { CampaignRow } from "../modules/campaigns/campaigns.repository.js";
import { campaignLogoUrl } from "../portal-urls.js";
import type { PageLogo } from "./views/layout.view.js";

export interface PagePayload extends CampaignPayload {
  /** The logo as the page shows it, or null when the campaign has none. */
  readonly pageLogo: PageLogo | null;
}

/** The alt text of a logo: the place's name when the page is a location's, else the network's or the campaign's name. */
export function logoAlt(payload: CampaignPayload, campaignName: string, placeName?: string | null): string {
  return placeName || payload.ssid || campaignName;
}

/** Page payloads per campaign row object (rows come from the catalogue cache) and place name. */
const ofRow = new WeakMap<CampaignRow, Map<string, PagePayload>>();

/**
 * The campaign's payload for a page; `placeName`: the location's name, when the page is shown for
 * one. Built once per row object and place (the logo's hash is computed once, not per request);
 * shared between requests: read it, never change it.
 */
export function pagePayload(campaign: CampaignRow, placeName?: string | null): PagePayload {
  let byPlace = ofRow.get(campaign);
  if (!byPlace) {
    byPlace = new Map();
    ofRow.set(campaign, byPlace);
  }
  const key = placeName ?? "";
  let out = byPlace.get(key);
  if (!out) {
    const payload = sharedPayload(campaign);
    const logo = storedLogo(payload.logo);
    const src = logo ? campaignLogoUrl("", campaign.filename, logoFileName(logo)) : null;
    out = { ...payload, pageLogo: src ? { src, alt: logoAlt(payload, campaign.name, placeName) } : null };
    if (byPlace.size >= 100) byPlace.clear();
    byPlace.set(key, out);
  }
  return out;
}
