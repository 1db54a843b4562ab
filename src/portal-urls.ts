/**
 * Where the portal serves pages. The API reports these URLs (get-location, campaigns) and the portal
 * routes answer them, so the one definition sits below both.
 */
export const PORTAL_PREFIX = "/portal/";
export const PORTAL_LOCATION_PREFIX = "/portal/l/";
export const PORTAL_CAMPAIGN_PREFIX = "/portal/c/";

export function locationPortalUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}${PORTAL_LOCATION_PREFIX}${slug}`;
}

export function campaignPageUrl(publicUrl: string, filename: string): string {
  return `${publicUrl}${PORTAL_CAMPAIGN_PREFIX}${filename}`;
}
