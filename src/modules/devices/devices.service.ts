/** Devices (access points): create, read, and the record every device read answers with. */
import type { Static } from "@sinclair/typebox";
import type { DB } from "../../db/database.js";
import { nowDatetime } from "../../db/time.js";
import { type ErrorBag, msg, validationError } from "../../errors.js";
import { canonicalMac } from "../../http/validation.js";
import { READABLE_ALPHABET, randomString } from "../../random-text.js";
import { findDeviceModel } from "./device-models.js";
import { type DeviceRow, deviceRepository } from "./devices.repository.js";
import type { CreateDeviceParams, DeviceRecord } from "./devices.schemas.js";
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

/** A new device of the account. The MAC is unique across the whole service: RADIUS finds the device by it. */
export async function createDevice(
  db: DB,
  accountId: number,
  p: Static<typeof CreateDeviceParams>,
  bag: ErrorBag,
): Promise<DeviceRow> {
  if (!bag.has("model_id") && !findDeviceModel(p.model_id.trim())) bag.add("model_id", msg.invalid("model_id"));
  const mac = bag.has("mac_address") ? "" : canonicalMac(p.mac_address);
  if (mac && (await deviceRepository.findByMac(db, mac))) bag.add("mac_address", msg.taken("mac_address"));
  bag.throwIfAny();
  const now = nowDatetime();
  let id: number;
  try {
    id = await deviceRepository.insert(db, {
      account_id: accountId,
      location_id: null,
      model_id: p.model_id.trim(),
      name: p.device_name.trim(),
      mac_address: mac,
      radius_secret: newRadiusSecret(),
      last_upgraded: null,
      last_heard_at: null,
      create_date: now,
      update_date: now,
    });
  } catch (err) {
    // Two creates of one MAC at once: the unique index lets one through; the other hears "taken".
    if (await deviceRepository.findByMac(db, mac)) throw validationError("mac_address", msg.taken("mac_address"));
    throw err;
  }
  return (await deviceRepository.findOwned(db, accountId, [id]))[0];
}

/** Own devices in the order asked; any id that is not the account's is an error under `param`. */
export async function readDevices(db: DB, accountId: number, ids: number[], param: string, bag: ErrorBag): Promise<DeviceRow[]> {
  if (ids.length === 0) return [];
  const rows = await deviceRepository.findOwned(db, accountId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (ids.some((id) => !byId.has(id))) {
    bag.add(param, msg.invalid(param));
    return [];
  }
  return ids.map((id) => byId.get(id)!);
}
