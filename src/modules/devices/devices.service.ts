/** Devices (access points): create, read, find by MAC, and the record every device read answers with. */
import type { Static } from "@sinclair/typebox";
import { fromDbDatetime, nowDatetime } from "../../db/time.js";
import { isUniqueViolation } from "../../db/transaction.js";
import { domainErrors } from "../../domain-errors.js";
import { canonicalMac, isCanonicalMac } from "../../mac-address.js";
import { READABLE_ALPHABET, randomString } from "../../random-text.js";
import type { Ctx } from "../context.js";
import type { DeviceRow } from "./devices.repository.js";
import type { DeviceRecord } from "./devices.schemas.js";
import { liveStatus } from "./live-status.js";

/**
 * 24 letters and digits (140 bits): strong, short enough for every gateway's secret field, and never
 * starting with "-" or holding characters a shell, a config file or a command-line tool could misread.
 */
export function newRadiusSecret(): string {
  return randomString(READABLE_ALPHABET, 24);
}

/** The API record of a device; the RADIUS secret only when the caller may see it. */
export function toDeviceRecord(row: DeviceRow, showSecret: boolean, now = Date.now()): Static<typeof DeviceRecord> {
  return {
    id: row.id,
    location_id: row.location_id ?? 0,
    model_id: row.model_id,
    name: row.name,
    mac_address: row.mac_address,
    wan_ip: row.wan_ip,
    create_date: row.create_date,
    update_date: row.update_date,
    upgrade: row.upgrade,
    last_upgraded: row.last_upgraded ?? "",
    wifi_channel: row.wifi_channel,
    firmware_version: row.firmware_version,
    status: row.status,
    live_status: liveStatus(row.last_heard_at, now),
    ...(showSecret ? { radius_secret: row.radius_secret } : {}),
  };
}

/** The registered device (of any account) with this MAC, given in canonical form; the portal and RADIUS find access points so. */
export async function findDeviceByMac(ctx: Ctx, mac: string): Promise<DeviceRow | undefined> {
  if (!isCanonicalMac(mac)) return undefined;
  return ctx.repos.devices.findByMac(ctx.db, mac);
}

/** Whether a device (of any account) has this MAC, in any accepted spelling. */
export async function isMacTaken(ctx: Ctx, mac: string): Promise<boolean> {
  return (await findDeviceByMac(ctx, canonicalMac(mac))) !== undefined;
}

export interface DeviceInput {
  name: string;
  /** Six hex pairs, colons or dashes, any case: stored canonical. */
  mac: string;
  /** An id of the device-model catalogue. */
  modelId: string;
}

/** A new device of the account. The MAC is unique across the whole service (domain error mac-taken). */
export async function createDevice(ctx: Ctx, accountId: number, input: DeviceInput): Promise<DeviceRow> {
  const now = nowDatetime();
  let id: number;
  try {
    id = await ctx.repos.devices.insert(ctx.db, {
      account_id: accountId,
      location_id: null,
      model_id: input.modelId.trim(),
      name: input.name.trim(),
      mac_address: canonicalMac(input.mac),
      radius_secret: newRadiusSecret(),
      last_upgraded: null,
      last_heard_at: null,
      create_date: now,
      update_date: now,
    });
  } catch (err) {
    // Two creates of one MAC at once: the unique index lets one through.
    if (isUniqueViolation(err)) throw domainErrors.macTaken();
    throw err;
  }
  return (await ctx.repos.devices.findOwned(ctx.db, accountId, [id]))[0];
}

/**
 * live_status is "online" for 10 minutes after the device was last heard from, so a minute's
 * precision is plenty: refreshing at most once a minute spares a busy AP's row a write per page view.
 */
export const HEARD_REFRESH_MS = 60_000;

/** Marks the device heard from now, unless that was said less than a minute ago. */
export async function noteDeviceHeard(ctx: Ctx, device: DeviceRow, now = Date.now()): Promise<void> {
  const heard = device.last_heard_at ? fromDbDatetime(device.last_heard_at).getTime() : 0;
  if (now - heard >= HEARD_REFRESH_MS) await ctx.repos.devices.markHeard(ctx.db, device.id, nowDatetime());
}

/**
 * A new RADIUS shared secret for the device, in force at once for new packets (RADIUS's device
 * look-up keeps an answer until the catalogue changes, as this does). The gateway must be given it too.
 */
export async function rotateRadiusSecret(ctx: Ctx, device: DeviceRow, chosen?: string): Promise<DeviceRow> {
  const secret = chosen ?? newRadiusSecret();
  const now = nowDatetime();
  await ctx.repos.devices.setRadiusSecret(ctx.db, device.id, secret, now);
  return { ...device, radius_secret: secret, update_date: now };
}

/** The devices assigned to a location, secrets included (the portal tries the openNDS routers' faskeys). */
export async function findDevicesAtLocation(ctx: Ctx, locationId: number): Promise<DeviceRow[]> {
  return ctx.repos.devices.listByLocation(ctx.db, locationId);
}
