/**
 * Where the portal serves pages. The API reports these URLs (get-location, campaigns) and the portal
 * routes answer them, so the one definition sits below both.
 */
export const PORTAL_PREFIX = "/portal/";
export const PORTAL_LOCATION_PREFIX = "/portal/l/";
export const PORTAL_CAMPAIGN_PREFIX = "/portal/c/";
/** A campaign's logo: `/portal/logo/<campaign_filename>/<sha256 prefix>.<ext>`, cached for a year by browsers. */
export const PORTAL_LOGO_PREFIX = "/portal/logo/";
/** Where UniFi sends guests: `http://<portal address>/guest/s/<site>/`, a path UniFi fixes. */
export const UNIFI_GUEST_PREFIX = "/guest/s/";
/** The RFC 8908 captive-portal API of a location: `/portal/l/<slug>` + this. */
export const CAPTIVE_API_SUFFIX = "/captive-portal-api";
/** "Connect automatically" (Passpoint) of a location: `/portal/passpoint/<location id>`, its profiles below it. */
export const PORTAL_PASSPOINT_PREFIX = "/portal/passpoint/";

export function locationPortalUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}${PORTAL_LOCATION_PREFIX}${slug}`;
}

export function campaignPageUrl(publicUrl: string, filename: string): string {
  return `${publicUrl}${PORTAL_CAMPAIGN_PREFIX}${filename}`;
}

/** `base`: the public URL for an absolute address, "" for a path on this host. */
export function campaignLogoUrl(base: string, filename: string, file: string): string {
  return `${base}${PORTAL_LOGO_PREFIX}${filename}/${file}`;
}

/** The RFC 8908 API URI of a location, to announce by DHCP option 114 or an IPv6 RA (RFC 8910). */
export function captivePortalApiUrl(publicUrl: string, slug: string): string {
  return `${locationPortalUrl(publicUrl, slug)}${CAPTIVE_API_SUFFIX}`;
}
