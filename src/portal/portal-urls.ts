/** Where the portal serves pages; the API reports these URLs, the portal routes answer them. */
export const PORTAL_PREFIX = "/portal/";
export const PORTAL_LOCATION_PREFIX = "/portal/l/";
export const PORTAL_CAMPAIGN_PREFIX = "/portal/c/";

export function locationPortalUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}${PORTAL_LOCATION_PREFIX}${slug}`;
}

export function campaignPageUrl(publicUrl: string, filename: string): string {
  return `${publicUrl}${PORTAL_CAMPAIGN_PREFIX}${filename}`;
}
