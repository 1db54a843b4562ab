/** Locations: create/update, read, soft delete, devices and session options; look-ups for the portal and RADIUS. */
import type { Static } from "@sinclair/typebox";
import type { Config } from "../../config.js";
import { randomBytes } from "node:crypto";
import { nowDatetime } from "../../db/time.js";
import { afterCommit, inTransaction } from "../../db/transaction.js";
import { locationPortalUrl } from "../../portal-urls.js";
import type { Ctx } from "../context.js";
import type { DeviceRow } from "../devices/devices.repository.js";
import { liveStatus } from "../devices/live-status.js";
import type { LocationOptionsRow, LocationRow } from "./locations.repository.js";
import type { LocationDeviceEntry, LocationOptions, LocationRecord } from "./locations.schemas.js";

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

/** A live (not deleted) location by id, of any account: the portal's page state and RADIUS name it. */
export async function findLiveLocation(ctx: Ctx, id: number): Promise<LocationRow | undefined> {
  const row = await ctx.repos.locations.findById(ctx.db, id);
  return row && row.deleted === 0 ? row : undefined;
}

/** Portal slugs are 12 url-safe characters (at most 64 in the column); nothing else is looked up. */
const SLUG_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** The live location whose portal page is `slug` (the last part of its `url`), or undefined. */
export async function findLiveLocationBySlug(ctx: Ctx, slug: string): Promise<LocationRow | undefined> {
  // Anything else (NUL bytes included, which PostgreSQL refuses in text) cannot be a slug.
  if (!SLUG_RE.test(slug)) return undefined;
  return ctx.repos.locations.findLiveBySlug(ctx.db, slug);
}

export interface LocationInput {
  name: string;
  address1: string;
  town: string;
  state: string;
  zipcode: string;
  /** ISO 3166-1 alpha-2, any case. */
  country: string;
  phoneNumber: string;
  timezone: string;
  website?: string;
  latitude?: number;
  longitude?: number;
}

/** Creates a location of the account, or updates `existing` (a live location of it). */
export async function saveLocation(
  ctx: Ctx,
  accountId: number,
  input: LocationInput,
  existing?: LocationRow,
): Promise<{ id: number; created: boolean }> {
  const now = nowDatetime();
  const values = {
    name: input.name.trim(),
    address1: input.address1.trim(),
    town: input.town.trim(),
    state: input.state.trim(),
    zipcode: input.zipcode.trim(),
    country: input.country.toUpperCase(),
    phone_number: input.phoneNumber,
    timezone: input.timezone,
    ...(input.website !== undefined ? { website: input.website } : {}),
    ...(input.latitude !== undefined ? { latitude: input.latitude } : {}),
    ...(input.longitude !== undefined ? { longitude: input.longitude } : {}),
    last_modified: now,
  };
  if (existing) {
    await ctx.repos.locations.update(ctx.db, existing.id, values);
    return { id: existing.id, created: false };
  }
  const id = await ctx.repos.locations.insert(ctx.db, {
    ...values,
    account_id: accountId,
    portal_slug: randomBytes(9).toString("base64url"),
    date_created: now,
    deleted: 0,
  });
  return { id, created: true };
}

/** Soft delete: the row stays (get-location shows it, deleted: 1); its devices are unassigned. */
export async function deleteLocation(ctx: Ctx, location: LocationRow): Promise<void> {
  await inTransaction(ctx.db, (trx) => ctx.repos.locations.softDelete(trx, location.id, nowDatetime()));
}

/** Assigns the device to the location, or (null) to none. */
export async function assignDevice(ctx: Ctx, device: DeviceRow, location: LocationRow | null): Promise<void> {
  await ctx.repos.devices.assignLocation(ctx.db, device.id, location?.id ?? null, nowDatetime());
}

export async function locationDevices(ctx: Ctx, location: LocationRow): Promise<Static<typeof LocationDeviceEntry>[]> {
  const rows = await ctx.repos.devices.listByLocation(ctx.db, location.id);
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

/** A location's options, all off when never set. Used by the API, the portal and RADIUS. */
export async function loadOptions(ctx: Ctx, locationId: number): Promise<LocationOptionsRow> {
  return (await ctx.repos.locations.findOptions(ctx.db, locationId)) ?? defaultOptions(locationId);
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

/** Session and bandwidth settings: 0 is off; bandwidth in bytes per second, the cap in bytes, time in seconds. */
export interface SessionSettings {
  sessionTimeLimit: number;
  maxBandwidthDown: number;
  maxBandwidthUp: number;
  dailyBandwidthCap: number;
  contentFilter: boolean;
  /** The four below keep their stored value when undefined. */
  dnsServer1?: string;
  dnsServer2?: string;
  whitelist?: string;
  blacklist?: string;
}

/**
 * Sets the location's session options. Live sessions get the new limits by CoA (RFC 5176), sent
 * once this write has committed (a write that rolls back sends nothing; docs/sessions.md).
 */
export async function setSessionAndBandwidth(ctx: Ctx, location: LocationRow, s: SessionSettings, config: Readonly<Config>): Promise<void> {
  const current = await loadOptions(ctx, location.id);
  await ctx.repos.locations.upsertOptions(ctx.db, {
    location_id: location.id,
    session_time_limit: s.sessionTimeLimit,
    max_bandwidth_down: s.maxBandwidthDown,
    max_bandwidth_up: s.maxBandwidthUp,
    daily_bandwidth_cap: s.dailyBandwidthCap,
    content_filter: s.contentFilter ? 1 : 0,
    dns_server_1: s.dnsServer1 ?? current.dns_server_1,
    dns_server_2: s.dnsServer2 ?? current.dns_server_2,
    whitelist: s.whitelist ?? current.whitelist,
    blacklist: s.blacklist ?? current.blacklist,
    updated_at: nowDatetime(),
  });
  // The walled garden (whitelist) reaches a UniFi or Omada controller's allowances once this commits.
  ctx.controllerSync?.pushAfterCommit(ctx, location.id, config);
  const control = ctx.sessionControl;
  if (!control) return;
  const limits = {
    session_time_limit: s.sessionTimeLimit,
    max_bandwidth_up: s.maxBandwidthUp,
    max_bandwidth_down: s.maxBandwidthDown,
    daily_bandwidth_cap: s.dailyBandwidthCap,
  };
  afterCommit(ctx.db, () =>
    control.applyLocationOptions(location.id, limits, location.timezone, config).catch(() => {
      // The database went away meanwhile: requests already started are recorded; the next change sends again.
    }),
  );
}
