/** Locations: create/update, read, soft delete, default campaign, devices and session options. */
import type { Static } from "@sinclair/typebox";
import { randomBytes } from "node:crypto";
import type { DB } from "../../db/database.js";
import { nowDatetime } from "../../db/time.js";
import { type ErrorBag, msg } from "../../errors.js";
import { locationPortalUrl } from "../../portal/portal-urls.js";
import { campaignRepository } from "../campaigns/campaigns.repository.js";
import { deviceRepository } from "../devices/devices.repository.js";
import { liveStatus } from "../devices/live-status.js";
import { type LocationOptionsRow, type LocationRow, locationRepository } from "./locations.repository.js";
import type { LocationDeviceEntry, LocationOptions, LocationRecord, LocationWriteParams, SetSessionParams } from "./locations.schemas.js";

type LocationWrite = Static<typeof LocationWriteParams>;

export function toLocationRecord(row: LocationRow, publicUrl: string): Static<typeof LocationRecord> {
  return {
    id: row.id,
    location_id: row.id,
    name: row.name,
    location: { latitude: row.latitude, longitude: row.longitude },
    address: row.address1,
    city: row.town,
    zip: row.zipcode,
    state: row.state,
    country: row.country,
    phone_number: row.phone_number,
    url: locationPortalUrl(publicUrl, row.portal_slug),
    website: row.website ?? "",
    time_zone: row.timezone,
    default_campaign_id: row.default_campaign_id ?? 0,
    date_created: row.date_created,
    last_modified: row.last_modified,
    deleted: row.deleted,
  };
}

/** A live (owned, not deleted) location, or an error under `param`. */
export async function requireLiveLocation(db: DB, accountId: number, id: number, param: string, bag: ErrorBag): Promise<boolean> {
  if (bag.has(param)) return false;
  const live = await locationRepository.findLiveIds(db, accountId, [id]);
  if (live.length === 0) bag.add(param, msg.invalid(param));
  return live.length > 0;
}

/** Owned locations in the order asked (deleted included); any id not owned is an error under `param`. */
export async function requireOwnedLocations(
  db: DB,
  accountId: number,
  ids: number[],
  param: string,
  bag: ErrorBag,
): Promise<LocationRow[]> {
  if (ids.length === 0) return [];
  const rows = await locationRepository.findOwned(db, accountId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (ids.some((id) => !byId.has(id))) {
    bag.add(param, msg.invalid(param));
    return [];
  }
  return ids.map((id) => byId.get(id)!);
}

export async function saveLocation(
  db: DB,
  accountId: number,
  p: LocationWrite,
  bag: ErrorBag,
): Promise<{ id: number; created: boolean }> {
  if (p.location_id !== undefined) await requireLiveLocation(db, accountId, p.location_id, "location_id", bag);
  bag.throwIfAny();
  const now = nowDatetime();
  const values = {
    name: p.location_name.trim(),
    address1: p.address1.trim(),
    town: p.town.trim(),
    state: p.state.trim(),
    zipcode: p.zipcode.trim(),
    country: p.country.toUpperCase(),
    phone_number: p.phone_number,
    timezone: p.timezone,
    ...(p.website !== undefined ? { website: p.website } : {}),
    ...(p.latitude !== undefined ? { latitude: p.latitude } : {}),
    ...(p.longitude !== undefined ? { longitude: p.longitude } : {}),
    last_modified: now,
  };
  if (p.location_id !== undefined) {
    await locationRepository.update(db, p.location_id, values);
    return { id: p.location_id, created: false };
  }
  const id = await locationRepository.insert(db, {
    ...values,
    account_id: accountId,
    portal_slug: randomBytes(9).toString("base64url"),
    date_created: now,
    deleted: 0,
  });
  return { id, created: true };
}

export async function deleteLocation(db: DB, accountId: number, id: number, bag: ErrorBag): Promise<void> {
  await requireLiveLocation(db, accountId, id, "location_id", bag);
  bag.throwIfAny();
  await db.transaction().execute((trx) => locationRepository.softDelete(trx, id, nowDatetime()));
}

/**
 * location_id > 0: the campaign (or, with campaign_id 0, none) becomes that location's default.
 * location_id 0: the campaign stops being the default of every location of the account.
 */
export async function assignCampaign(db: DB, accountId: number, locationId: number, campaignId: number, bag: ErrorBag): Promise<void> {
  if (locationId > 0) await requireLiveLocation(db, accountId, locationId, "location_id", bag);
  if (!bag.has("campaign_id")) {
    if (campaignId === 0 && locationId === 0) bag.add("campaign_id", msg.invalid("campaign_id"));
    else if (campaignId > 0) {
      const usable = await campaignRepository.findReadable(db, accountId, [campaignId]);
      if (usable.length === 0 || usable[0].deleted === 1) bag.add("campaign_id", msg.invalid("campaign_id"));
    }
  }
  bag.throwIfAny();
  const now = nowDatetime();
  if (locationId === 0) await locationRepository.clearDefaultCampaign(db, accountId, campaignId, now);
  else await locationRepository.setDefaultCampaign(db, locationId, campaignId === 0 ? null : campaignId, now);
}

export async function assignDevice(db: DB, accountId: number, locationId: number, deviceId: number, bag: ErrorBag): Promise<void> {
  if (locationId > 0) await requireLiveLocation(db, accountId, locationId, "location_id", bag);
  if (!bag.has("device_id") && (await deviceRepository.findOwned(db, accountId, [deviceId])).length === 0) {
    bag.add("device_id", msg.invalid("device_id"));
  }
  bag.throwIfAny();
  await deviceRepository.assignLocation(db, deviceId, locationId === 0 ? null : locationId, nowDatetime());
}

export async function locationDevices(db: DB, locationId: number): Promise<Static<typeof LocationDeviceEntry>[]> {
  const rows = await deviceRepository.listByLocation(db, locationId);
  const now = Date.now();
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    mac_address: d.mac_address,
    model: d.model_id,
    status: d.status,
    live_status: liveStatus(d.last_heard_at, now),
    firmware_version: d.firmware_version,
    upgrade: d.upgrade,
    sync_response: d.sync_response,
    status_created_on: d.create_date,
  }));
}

export function defaultOptions(locationId: number): LocationOptionsRow {
  return {
    location_id: locationId,
    session_time_limit: 0,
    max_bandwidth_down: 0,
    max_bandwidth_up: 0,
    daily_bandwidth_cap: 0,
    content_filter: 0,
    dns_server_1: "",
    dns_server_2: "",
    whitelist: "",
    blacklist: "",
    updated_at: nowDatetime(),
  };
}

/** A location's options, all off when never set. Used by the API and by RADIUS. */
export async function loadOptions(db: DB, locationId: number): Promise<LocationOptionsRow> {
  return (await locationRepository.findOptions(db, locationId)) ?? defaultOptions(locationId);
}

export function toOptionsRecord(o: LocationOptionsRow): Static<typeof LocationOptions> {
  return {
    location_id: o.location_id,
    session_time_limit: { state: o.session_time_limit > 0, value: o.session_time_limit },
    daily_bandwidth_cap: { state: o.daily_bandwidth_cap > 0, value: o.daily_bandwidth_cap },
    content_filter: { state: o.content_filter === 1 },
    bandwidth_throttle_upanddown: {
      state_up: o.max_bandwidth_up > 0,
      state_down: o.max_bandwidth_down > 0,
      value: { up: o.max_bandwidth_up, down: o.max_bandwidth_down },
    },
    dns_server_1: o.dns_server_1,
    dns_server_2: o.dns_server_2,
    blacklist: o.blacklist,
    whitelist: o.whitelist,
  };
}

/** The five listed values are always set (omitted ones to 0); DNS and domain lists keep their value when omitted. */
export async function setSessionAndBandwidth(
  db: DB,
  accountId: number,
  p: Static<typeof SetSessionParams>,
  bag: ErrorBag,
): Promise<void> {
  await requireLiveLocation(db, accountId, p.location_id, "location_id", bag);
  bag.throwIfAny();
  const current = await loadOptions(db, p.location_id);
  await locationRepository.upsertOptions(db, {
    location_id: p.location_id,
    session_time_limit: p.session_time_limit ?? 0,
    max_bandwidth_down: p.max_bandwidth ?? 0,
    max_bandwidth_up: p.max_bandwidth_up ?? 0,
    daily_bandwidth_cap: p.daily_bandwidth_cap ?? 0,
    content_filter: p.content_filter ? 1 : 0,
    dns_server_1: p.dns_server_1 ?? current.dns_server_1,
    dns_server_2: p.dns_server_2 ?? current.dns_server_2,
    whitelist: p.whitelist ?? current.whitelist,
    blacklist: p.blacklist ?? current.blacklist,
    updated_at: nowDatetime(),
  });
}
