/**
 * openNDS FAS on the portal's side (the protocol is in gateways/opennds.ts): finding the router
 * behind an encrypted redirect, handing a logged-in guest to it (levels 1 and 2: the browser to
 * its authdir; level 3: a grant its authmon collects), and answering authmon's `auth_get` polls.
 *
 * The router is recognised by `gatewaymac` in its record: a registered device with that MAC.
 * Its faskey is the device's own secret (radius_secret, as get-device shows it). At levels 2 and 3
 * the record is encrypted with that key, so the portal tries the keys of the openNDS-capable
 * devices (family openwrt) assigned to the location of the page, and keeps the one whose record
 * decrypts and names that device's MAC.
 */
import type { Config } from "../../config.js";
import { type Grant, type GrantVoucher, grantFor, grantSettings } from "../../gateways/grant-policy.js";
import { toDbDatetime } from "../../db/time.js";
import { findDeviceModel } from "../../modules/devices/device-models.js";
import { findDeviceByMac, findDevicesAtLocation } from "../../modules/devices/devices.service.js";
import { localDay } from "../../modules/guests/local-day.js";
import type { LocationRow } from "../../modules/locations/locations.repository.js";
import { findLiveLocationBySlug, loadOptions } from "../../modules/locations/locations.service.js";
import type { RadiusCtx } from "../../radius/radius.repository.js";
import { param } from "../../gateways/gateway-params.js";
import type { GatewayArrival, OpenNdsState } from "../../gateways/gateway-types.js";
import {
  type OpenNdsLimits,
  decryptFas,
  openNdsAuthEntry,
  openNdsAuthUrl,
  openNdsQuery,
  openNdsToken,
  parseOpenNdsLevel1,
  parseOpenNdsRecord,
} from "../../gateways/opennds/opennds.js";
import { portalErrors } from "../portal-errors.js";
import { deleteGrants, insertGrant, pendingGrants } from "./opennds-grants.repository.js";

/** Where the page was opened: a location's page (levels 1-3) or a campaign page (level 1 only). */
export type OpenNdsScope = { slug: string } | null;

function isOpenNdsDevice(modelId: string): boolean {
  const model = findDeviceModel(modelId);
  return model?.family === "openwrt";
}

/**
 * The arrival of an openNDS redirect, null when the query is not one, or a refusal (the portal's
 * error page). `level3`: the page was opened at the location's authmon address.
 */
export async function resolveOpenNdsArrival(ctx: RadiusCtx, scope: OpenNdsScope, query: Record<string, unknown>, level3: boolean): Promise<GatewayArrival | null> {
  const q = openNdsQuery(query);
  if (!q) {
    if (level3) throw portalErrors.gatewayRefused();
    return null;
  }
  if (q.iv === "") {
    if (level3) throw portalErrors.gatewayRefused();
    const parsed = parseOpenNdsLevel1(q.fas);
    if (parsed.kind !== "arrival") throw portalErrors.gatewayRefused();
    return parsed.arrival;
  }
  if (!scope) throw portalErrors.gatewayRefused();
  const location = await findLiveLocationBySlug(ctx, scope.slug);
  if (!location) throw portalErrors.pageNotFound();
  for (const device of await findDevicesAtLocation(ctx, location.id)) {
    if (!isOpenNdsDevice(device.model_id)) continue;
    const record = decryptFas(q.fas, q.iv, device.radius_secret);
    if (record === undefined) continue;
    const parsed = parseOpenNdsRecord(record, level3 ? 3 : 2);
    if (parsed.kind === "arrival" && parsed.arrival.apMac === device.mac_address) return parsed.arrival;
  }
  // No router of this location wrote it: a wrong faskey, another location's router, or forged.
  throw portalErrors.gatewayRefused();
}

/** What the grant policy gives the guest, in openNDS's units; the quota is what remains of the guest's daily cap today (or the voucher's). */
async function limitsFor(ctx: RadiusCtx, config: Readonly<Config>, location: LocationRow, guestId: number, voucher: GrantVoucher | undefined, at: Date): Promise<{ limits: OpenNdsLimits; grant: Grant }> {
  const options = await loadOptions(ctx, location.id);
  const used = options.daily_bandwidth_cap > 0 && voucher?.bytesLeft === undefined ? await ctx.radius.usageOn(ctx.db, guestId, location.id, localDay(at, location.timezone)) : 0;
  const grant = grantFor({ options, voucher, usedToday: used, settings: grantSettings(config) });
  if (grant.spent) throw portalErrors.allowanceSpent();
  const kbits = (bytesPerSecond: number) => (bytesPerSecond > 0 ? Math.max(1, Math.round((bytesPerSecond * 8) / 1000)) : 0);
  return {
    grant,
    limits: {
      sessionMinutes: grant.sessionSeconds > 0 ? Math.ceil(grant.sessionSeconds / 60) : 0,
      uploadKbits: kbits(grant.upBytesPerSecond),
      downloadKbits: kbits(grant.downBytesPerSecond),
      quotaKbytes: grant.remainingBytes === undefined ? 0 : Math.max(1, Math.floor(grant.remainingBytes / 1024)),
    },
  };
}

export interface OpenNdsHandoffInput {
  gw: OpenNdsState;
  location: LocationRow;
  deviceId: number | null;
  guestId: number;
  /** The voucher the guest logged in with: its limits replace the location's. */
  voucher?: GrantVoucher;
  /** Where the guest goes once online: the campaign's redirect_url, or where they were going. */
  redir: string;
}

/** Levels 1 and 2: the router's authdir URL; level 3: the grant is queued for authmon and the guest sees the connected page. */
export async function openNdsHandoff(
  ctx: RadiusCtx,
  config: Readonly<Config>,
  input: OpenNdsHandoffInput,
  at = new Date(),
): Promise<{ url: string; seconds: number } | { queued: true; seconds: number }> {
  const { gw, location } = input;
  const device = await findDeviceByMac(ctx, gw.mac);
  if (!device || device.id !== input.deviceId || device.location_id !== location.id) throw portalErrors.unknownAccessPoint();
  const { limits, grant } = await limitsFor(ctx, config, location, input.guestId, input.voucher, at);
  // How long the router lets the guest in: the session in whole minutes (openNDS's unit), else the policy's default.
  const seconds = limits.sessionMinutes > 0 ? limits.sessionMinutes * 60 : grant.grantSeconds;
  if (gw.level !== 3) return { url: openNdsAuthUrl(gw, device.radius_secret, input.redir || config.publicUrl, limits), seconds };
  const rhid = openNdsToken(gw.hid, device.radius_secret);
  await insertGrant(ctx.db, {
    location_id: location.id,
    device_id: device.id,
    gateway_hash: gw.gwhash,
    rhid,
    entry: openNdsAuthEntry(rhid, limits),
    created_at: toDbDatetime(at),
    expires_at: toDbDatetime(new Date(at.getTime() + config.radius.credentialTtlSeconds * 1000)),
  });
  return { queued: true, seconds };
}

const AUTH_GET = new Set(["list", "view", "clear", "deauthed", "custom"]);
/** authmon takes a few clients per poll; more wait for the next one. */
const MAX_ENTRIES = 32;

/** authmon's payload: base64 since openNDS 9 ("none", or the ack list "* rhid rhid ..."); plain text before. */
function payloadText(raw: string): string {
  if (raw === "" || raw === "none") return "none";
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) {
    const decoded = Buffer.from(raw, "base64").toString("utf8");
    if (/^[\x20-\x7e\n]*$/.test(decoded)) return decoded.trim();
  }
  return raw.trim();
}

/**
 * An authmon poll (POST to the location's authmon address): `auth_get` = view (send the pending
 * entries, or with an ack list delete the acknowledged ones), list (send and delete), clear (drop
 * the router's pending entries, at its start), deauthed / custom (notifications: acknowledged).
 * Answers as openNDS's own FAS does: `*` followed by the url-encoded entries, `ack`, or nothing.
 */
export async function answerAuthmon(ctx: RadiusCtx, slug: string, body: Record<string, unknown>, at = new Date()): Promise<string> {
  const action = param(body, "auth_get", 16);
  const gatewayHash = param(body, "gatewayhash", 64).toLowerCase();
  if (!AUTH_GET.has(action) || !/^[0-9a-f]{64}$/.test(gatewayHash)) throw portalErrors.gatewayRefused();
  const location = await findLiveLocationBySlug(ctx, slug);
  if (!location) throw portalErrors.pageNotFound();
  if (action === "deauthed" || action === "custom") return "ack";
  const now = toDbDatetime(at);
  if (action === "clear") {
    await deleteGrants(ctx.db, location.id, gatewayHash, undefined, now);
    return "";
  }
  const payload = payloadText(param(body, "payload", 8192));
  if (action === "view" && payload !== "none") {
    const acked = payload.split(/\s+/).filter((t) => /^[0-9a-f]{64}$/.test(t));
    await deleteGrants(ctx.db, location.id, gatewayHash, acked, now);
    return "ack";
  }
  const pending = await pendingGrants(ctx.db, location.id, gatewayHash, now, MAX_ENTRIES);
  if (action === "list") await deleteGrants(ctx.db, location.id, gatewayHash, pending.map((p) => p.rhid), now);
  return ["*", ...pending.map((p) => encodeURIComponent(p.entry))].join(" ");
}
