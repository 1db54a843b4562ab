/**
 * Which page a guest sees: the location (by its portal slug) or campaign (by filename), the
 * campaign's payload, and the access point that sent the guest, found by its MAC among the
 * registered devices (which marks it heard from). Gateways and APs that do not check out are
 * refused here, before any page state is signed. The look-ups are the modules' own.
 */
import type { DB } from "../db/database.js";
import { ReadCache } from "../db/read-cache.js";
import type { CampaignRow } from "../modules/campaigns/campaigns.repository.js";
import { campaignShownAt, findLiveCampaignByFilename } from "../modules/campaigns/campaigns.service.js";
import type { Ctx } from "../modules/context.js";
import { findDeviceModel } from "../modules/devices/device-models.js";
import type { DeviceRow } from "../modules/devices/devices.repository.js";
import { HEARD_REFRESH_MS, findDeviceByMac, noteDeviceHeard } from "../modules/devices/devices.service.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import { findLiveLocation, findLiveLocationBySlug } from "../modules/locations/locations.service.js";
import { type GatewayArrival, targetAllowed } from "../gateways/gateway.js";
import { handoffOf } from "../gateways/registry.js";
import { type PagePayload, pagePayload } from "./page-payload.js";
import { portalErrors } from "./portal-errors.js";

export interface PageContext {
  location: LocationRow | null;
  campaign: CampaignRow;
  payload: PagePayload;
  device: DeviceRow | null;
  arrival: GatewayArrival | null;
}

/**
 * What a page's look-ups found (location or campaign, the AP by its MAC, the campaign shown, its
 * parsed payload), kept per app while the catalogue tables do not change (ReadCache: any write on
 * SQLite, any announced catalogue write on PostgreSQL, from whichever instance). The checks of the
 * gateway's request against them run on every request.
 */
interface Found {
  location: LocationRow | null;
  campaign: CampaignRow;
  payload: PagePayload;
  device: DeviceRow | undefined;
}

export interface PageLookups {
  found: ReadCache<string, Found>;
  /** When this app last marked each AP heard from: a kept device row's last_heard_at is not refreshed. */
  heard: Map<number, number>;
}

export function createPageLookups(): PageLookups {
  return { found: new ReadCache<string, Found>(5_000, true), heard: new Map() };
}

/** Read through `cache` when given; a page that was not found is never kept. */
function lookup(db: DB, cache: PageLookups | undefined, key: string, read: () => Promise<Found | undefined>): Promise<Found | undefined> {
  if (!cache) return read();
  const hit = cache.found.get(db, key);
  return hit ? Promise.resolve(hit) : cache.found.load(db, key, read);
}

/** The registered AP behind a gateway redirect (looked up by the caller), vetted, and marked heard from. */
async function vetAccessPoint(
  ctx: Ctx,
  arrival: GatewayArrival,
  device: DeviceRow | undefined,
  accountId: number | null,
  cache: PageLookups | undefined,
): Promise<DeviceRow> {
  if (!device) throw portalErrors.unknownAccessPoint();
  // Another account's AP must not log guests in at (and be counted for) this account's locations.
  if (accountId !== null && device.account_id !== accountId) throw portalErrors.unknownAccessPoint();
  if (!targetAllowed(arrival, device.wan_ip)) throw portalErrors.gatewayRefused();
  // A controller family's redirect counts only from a device of that family: its model decides.
  const onlyFrom = handoffOf(arrival.state).onlyFrom;
  if (onlyFrom !== undefined && findDeviceModel(device.model_id)?.family !== onlyFrom) throw portalErrors.unknownAccessPoint();
  if (cache) {
    const now = Date.now();
    const last = cache.heard.get(device.id);
    if (last !== undefined && now - last < HEARD_REFRESH_MS) return device;
    if (cache.heard.size >= 50_000) cache.heard.clear();
    cache.heard.set(device.id, now);
  }
  await noteDeviceHeard(ctx, device);
  return device;
}

export async function resolveLocationPage(ctx: Ctx, slug: string, arrival: GatewayArrival | null, cache?: PageLookups): Promise<PageContext> {
  const found = await lookup(ctx.db, cache, `l\u0000${slug}\u0000${arrival?.apMac ?? ""}`, async () => {
    // Independent lookups: on PostgreSQL they overlap.
    const [location, device] = await Promise.all([
      findLiveLocationBySlug(ctx, slug),
      arrival ? findDeviceByMac(ctx, arrival.apMac) : undefined,
    ]);
    if (!location) return undefined;
    const campaign = await campaignShownAt(ctx, location);
    return { location, campaign, payload: pagePayload(campaign, location.name), device };
  });
  if (!found?.location) throw portalErrors.pageNotFound();
  const { location, campaign, payload } = found;
  const device = arrival ? await vetAccessPoint(ctx, arrival, found.device, location.account_id, cache) : null;
  return { location, campaign, payload, device, arrival };
}

/**
 * A campaign page. Logins there are recorded at the AP's location, so the AP must be assigned to
 * a live location of the campaign's account (templates serve every account). Opened without a
 * gateway, the page is a preview.
 */
export async function resolveCampaignPage(ctx: Ctx, filename: string, arrival: GatewayArrival | null, cache?: PageLookups): Promise<PageContext> {
  const found = await lookup(ctx.db, cache, `c\u0000${filename}\u0000${arrival?.apMac ?? ""}`, async () => {
    const [campaign, device] = await Promise.all([
      findLiveCampaignByFilename(ctx, filename),
      arrival ? findDeviceByMac(ctx, arrival.apMac) : undefined,
    ]);
    if (!campaign) return undefined;
    const location = device?.location_id == null ? undefined : await findLiveLocation(ctx, device.location_id);
    return { location: location ?? null, campaign, payload: pagePayload(campaign, location?.name), device };
  });
  if (!found) throw portalErrors.pageNotFound();
  const { campaign, payload } = found;
  let device: DeviceRow | null = null;
  let location: LocationRow | null = null;
  if (arrival) {
    device = await vetAccessPoint(ctx, arrival, found.device, campaign.account_id, cache);
    const loc = found.location;
    if (!loc || loc.account_id !== device.account_id) throw portalErrors.unknownAccessPoint();
    location = loc;
  }
  return { location, campaign, payload, device, arrival };
}

/**
 * A page opened at a path the gateway fixes (UniFi's `/guest/s/<site>/`): the location is the one
 * the AP is assigned to, and its campaign is shown.
 */
export async function resolveAccessPointPage(ctx: Ctx, arrival: GatewayArrival): Promise<PageContext> {
  const found = await findDeviceByMac(ctx, arrival.apMac);
  const device = await vetAccessPoint(ctx, arrival, found, null, undefined);
  const location = device.location_id === null ? undefined : await findLiveLocation(ctx, device.location_id);
  if (!location || location.account_id !== device.account_id) throw portalErrors.unknownAccessPoint();
  const campaign = await campaignShownAt(ctx, location);
  return { location, campaign, payload: pagePayload(campaign, location.name), device, arrival };
}
