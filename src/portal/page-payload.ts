/**
 * A campaign's payload as the portal's pages render it: with the address its logo is served at
 * (portal-logo.routes.ts) instead of the logo itself, so that a page stays small, the image is
 * fetched once per phone (it is immutable at that address), and the rendered page can be cached.
 */
import { logoFileName, storedLogo } from "../modules/campaigns/campaign-logo.js";
import { type CampaignPayload, parsePayload } from "../modules/campaigns/campaign-payload.js";
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

/** The campaign's payload for a page; `placeName`: the location's name, when the page is shown for one. */
export function pagePayload(campaign: CampaignRow, placeName?: string | null): PagePayload {
  const payload = parsePayload(campaign.payload);
  const logo = storedLogo(payload.logo);
  const src = logo ? campaignLogoUrl("", campaign.filename, logoFileName(logo)) : null;
  return { ...payload, pageLogo: src ? { src, alt: logoAlt(payload, campaign.name, placeName) } : null };
}
