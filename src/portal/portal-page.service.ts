/**
 * Which page a guest sees: the location (by its portal slug) or campaign (by filename), the
 * campaign's payload, and the access point that sent the guest, found by its MAC among the
 * registered devices (which marks it heard from). Gateways and APs that do not check out are
 * refused here, before any page state is signed.
 */
import type { DB } from "../db/database.js";
import { fromDbDatetime, nowDatetime } from "../db/time.js";
import { type CampaignPayload, parsePayload } from "../modules/campaigns/campaign-payload.js";
import { type CampaignRow, campaignRepository } from "../modules/campaigns/campaigns.repository.js";
import { type DeviceRow, deviceRepository } from "../modules/devices/devices.repository.js";
import { type LocationRow, locationRepository } from "../modules/locations/locations.repository.js";
import { type GatewayArrival, targetAllowed } from "./gateways/gateway.js";
import { portalErrors } from "./portal-errors.js";

export interface PageContext {
  location: LocationRow | null;
  campaign: CampaignRow;
  payload: CampaignPayload;
  device: DeviceRow | null;
  arrival: GatewayArrival | null;
}

/** The campaign a location shows: its default, or the first built-in template when none is set. */
export async function campaignOfLocation(db: DB, location: LocationRow): Promise<CampaignRow> {
  if (location.default_campaign_id !== null) {
    const c = await campaignRepository.findById(db, location.default_campaign_id);
    if (c && c.deleted === 0) return c;
  }
  return campaignRepository.firstTemplate(db);
}

/**
 * live_status is "online" for 10 minutes after the AP was last heard from, so a minute's precision
 * is plenty; refreshing at most once a minute spares a busy AP's row one write per page view.
 */
export const HEARD_REFRESH_MS = 60_000;

/** The registered AP behind a gateway redirect (looked up by the caller), vetted, and marked heard from. */
async function vetAccessPoint(db: DB, arrival: GatewayArrival, device: DeviceRow | undefined, accountId: number | null): Promise<DeviceRow> {
  if (!device) throw portalErrors.unknownAccessPoint();
  // Another account's AP must not log guests in at (and be counted for) this account's locations.
  if (accountId !== null && device.account_id !== accountId) throw portalErrors.unknownAccessPoint();
  if (!targetAllowed(arrival, device.wan_ip)) throw portalErrors.gatewayRefused();
  const heard = device.last_heard_at ? fromDbDatetime(device.last_heard_at).getTime() : 0;
  if (Date.now() - heard >= HEARD_REFRESH_MS) await deviceRepository.markHeard(db, device.id, nowDatetime());
  return device;
}

export async function resolveLocationPage(db: DB, slug: string, arrival: GatewayArrival | null): Promise<PageContext> {
  // Independent lookups: on PostgreSQL they overlap.
  const [location, found] = await Promise.all([
    locationRepository.findBySlug(db, slug),
    arrival ? deviceRepository.findByMac(db, arrival.apMac) : undefined,
  ]);
  if (!location) throw portalErrors.pageNotFound();
  const device = arrival ? await vetAccessPoint(db, arrival, found, location.account_id) : null;
  const campaign = await campaignOfLocation(db, location);
  return { location, campaign, payload: parsePayload(campaign.payload), device, arrival };
}

/**
 * A campaign page. Logins there are recorded at the AP's location, so the AP must be assigned to
 * a live location of the campaign's account (templates serve every account). Opened without a
 * gateway, the page is a preview.
 */
export async function resolveCampaignPage(db: DB, filename: string, arrival: GatewayArrival | null): Promise<PageContext> {
  const [campaign, found] = await Promise.all([
    campaignRepository.findByFilename(db, filename),
    arrival ? deviceRepository.findByMac(db, arrival.apMac) : undefined,
  ]);
  if (!campaign) throw portalErrors.pageNotFound();
  let device: DeviceRow | null = null;
  let location: LocationRow | null = null;
  if (arrival) {
    device = await vetAccessPoint(db, arrival, found, campaign.account_id);
    const loc = device.location_id === null ? undefined : await locationRepository.findById(db, device.location_id);
    if (!loc || loc.deleted === 1 || loc.account_id !== device.account_id) {
      throw portalErrors.unknownAccessPoint();
    }
    location = loc;
  }
  return { location, campaign, payload: parsePayload(campaign.payload), device, arrival };
}
