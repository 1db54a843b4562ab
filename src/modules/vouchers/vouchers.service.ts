/**
 * Vouchers: batches of printed codes that let a guest online for a time, with limits of their own.
 * A code's time counts from its first login (duration); it works at its batch's locations, on at
 * most devices_per_code devices, until the batch's last day (expires), unless revoked. All the
 * devices of one code are one guest (login type Vuser, identity the code), whose RADIUS usage is
 * the code's data use. Decisions in docs/guest-data.md.
 */
import type { Static } from "@sinclair/typebox";
import { toDbDatetime } from "../../db/time.js";
import { inTransaction } from "../../db/transaction.js";
import { parsePayload } from "../campaigns/campaign-payload.js";
import { campaignShownAt } from "../campaigns/campaigns.service.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { formatVoucherCode, newVoucherCode, normalizeVoucherCode } from "./voucher-codes.js";
import type { VoucherBatchRow, VoucherListFilter } from "./vouchers.repository.js";
import type { Voucher, VoucherBatch } from "./vouchers.schemas.js";

export interface NewBatch {
  count: number;
  durationMinutes: number;
  dataCap: number;
  bandwidthUp: number;
  bandwidthDown: number;
  devicesPerCode: number;
  /** Last day (YYYY-MM-DD, UTC) or null. */
  expires: string | null;
}

type BatchOut = Static<typeof VoucherBatch>;
type VoucherOut = Static<typeof Voucher>;

function batchOut(b: VoucherBatchRow, locationIds: number[], unused: number, revoked: number): BatchOut {
  return {
    batch_id: b.id,
    location_ids: locationIds,
    count: b.code_count,
    duration: b.duration_minutes,
    data_cap: Number(b.data_cap),
    bandwidth_up: Number(b.bandwidth_up),
    bandwidth_down: Number(b.bandwidth_down),
    devices_per_code: b.devices_per_code,
    expires: b.expires_at ? b.expires_at.slice(0, 10) : "",
    created_at: b.created_at,
    unused,
    revoked,
  };
}

export async function createVoucherBatch(ctx: Ctx, accountId: number, locations: LocationRow[], input: NewBatch, at = new Date()): Promise<{ batch: BatchOut; codes: string[] }> {
  const now = toDbDatetime(at);
  return inTransaction(ctx.db, async (trx) => {
    const repo = ctx.repos.vouchers;
    const row = {
      account_id: accountId,
      code_count: input.count,
      duration_minutes: input.durationMinutes,
      data_cap: input.dataCap,
      bandwidth_up: input.bandwidthUp,
      bandwidth_down: input.bandwidthDown,
      devices_per_code: input.devicesPerCode,
      expires_at: input.expires ? `${input.expires} 23:59:59` : null,
      created_at: now,
    };
    const locationIds = locations.map((l) => l.id);
    const id = await repo.insertBatch(trx, row, locationIds);
    const codes: string[] = [];
    // A code already taken (by any account) is skipped and drawn again: at 44 bits, rarely ever.
    while (codes.length < input.count) {
      const fresh = new Set<string>();
      while (fresh.size < input.count - codes.length) fresh.add(newVoucherCode());
      codes.push(...(await repo.insertCodes(trx, accountId, id, [...fresh])));
    }
    return { batch: batchOut({ id, ...row }, locationIds, input.count, 0), codes: codes.map(formatVoucherCode) };
  });
}

export async function listVoucherBatches(
  ctx: Ctx,
  accountId: number,
  page: number,
  perPage: number,
  scope: number[] | null = null,
): Promise<{ data: BatchOut[]; total: number }> {
  const repo = ctx.repos.vouchers;
  const [rows, total] = await Promise.all([repo.listBatches(ctx.db, accountId, (page - 1) * perPage, perPage, scope), repo.countBatches(ctx.db, accountId, scope)]);
  const locations = await repo.batchLocations(ctx.db, rows.map((r) => r.id));
  return {
    data: rows.map((r) =>
      batchOut(r, locations.filter((l) => l.batch_id === r.id).map((l) => l.location_id), Number(r.unused ?? 0), Number(r.revoked ?? 0)),
    ),
    total,
  };
}

export async function listVouchers(
  ctx: Ctx,
  accountId: number,
  filter: VoucherListFilter,
  page: number,
  perPage: number,
  at = new Date(),
): Promise<{ data: VoucherOut[]; total: number }> {
  const now = toDbDatetime(at);
  const repo = ctx.repos.vouchers;
  const [rows, total] = await Promise.all([
    repo.listVouchers(ctx.db, accountId, filter, now, (page - 1) * perPage, perPage),
    repo.countVouchers(ctx.db, accountId, filter, now),
  ]);
  return {
    data: rows.map((r) => ({
      voucher_id: r.id,
      batch_id: r.batch_id,
      code: formatVoucherCode(r.code),
      status: r.status,
      first_used_at: r.first_used_at ?? "",
      ends_at: r.ends_at ?? "",
      revoked_at: r.revoked_at ?? "",
      devices_used: Number(r.devices_used),
      bytes_used: Number(r.bytes_used),
    })),
    total,
  };
}

/** A typed code as stored, or "" (the list filter then matches nothing). */
export function codeFilter(typed: string): string {
  return normalizeVoucherCode(typed);
}

export async function revokeVouchers(ctx: Ctx, accountId: number, target: { voucherId: number } | { batchId: number }, at = new Date()): Promise<number> {
  return ctx.repos.vouchers.revoke(ctx.db, accountId, target, toDbDatetime(at));
}

export async function printableCodes(ctx: Ctx, batchId: number): Promise<string[]> {
  return (await ctx.repos.vouchers.printableCodes(ctx.db, batchId)).map(formatVoucherCode);
}

/** What a voucher grants now: seconds left, its own rates and data allowance left (0 / undefined: the location's). */
export interface VoucherLimits {
  voucherId: number;
  secondsLeft: number;
  bandwidthUp: number;
  bandwidthDown: number;
  /** Octets left of the code's own cap; undefined when the batch has none. */
  bytesLeft: number | undefined;
}

export type VoucherRefusal = "unknown" | "other-location" | "revoked" | "expired" | "time-used-up" | "data-used-up" | "devices-used-up";

export const VOUCHER_REFUSALS: Record<VoucherRefusal, string> = {
  unknown: "This voucher code is not valid. Please check the code and try again.",
  "other-location": "This voucher is not valid at this location.",
  revoked: "This voucher has been cancelled. Please ask a member of staff for a new one.",
  expired: "This voucher has expired. Please ask a member of staff for a new one.",
  "time-used-up": "The time on this voucher is used up. Please ask a member of staff for a new one.",
  "data-used-up": "The data allowance of this voucher is used up. Please ask a member of staff for a new one.",
  "devices-used-up": "This voucher is already in use on as many devices as it allows.",
};

type CodeRow = NonNullable<Awaited<ReturnType<Ctx["repos"]["vouchers"]["findByCode"]>>>;

async function limitsOf(ctx: Ctx, v: CodeRow, now: string, at: Date, endsAt: string): Promise<VoucherLimits | VoucherRefusal> {
  const secondsLeft = Math.floor((Date.parse(`${endsAt.replace(" ", "T")}Z`) - at.getTime()) / 1000);
  if (secondsLeft <= 0 || endsAt <= now) return "time-used-up";
  let bytesLeft: number | undefined;
  const cap = Number(v.data_cap);
  if (cap > 0) {
    bytesLeft = cap - (await ctx.repos.vouchers.bytesUsedByCode(ctx.db, v.account_id, v.code));
    if (bytesLeft <= 0) return "data-used-up";
  }
  return { voucherId: v.id, secondsLeft, bandwidthUp: Number(v.bandwidth_up), bandwidthDown: Number(v.bandwidth_down), bytesLeft };
}

/**
 * A guest's login with a typed code at `location` from device `deviceKey` (its MAC, or the page
 * session): checks the code, and on its first use starts its time; a new device takes one of its
 * places. Answers the limits the login grants, or why the code is refused. Atomic: two devices
 * racing for a code's last place do not both get it.
 */
export async function redeemVoucher(
  ctx: Ctx,
  input: { typed: string; location: LocationRow; deviceKey: string },
  at = new Date(),
): Promise<VoucherLimits | VoucherRefusal> {
  const code = normalizeVoucherCode(input.typed);
  if (!code) return "unknown";
  const now = toDbDatetime(at);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const repo = ctx.repos.vouchers;
    const v = await repo.findByCode(trx, code, "update");
    // Another account's code is as unknown as a code that does not exist.
    if (!v || v.account_id !== input.location.account_id) return "unknown";
    if (!(await repo.worksAt(trx, v.batch_id, input.location.id))) return "other-location";
    if (v.revoked_at !== null) return "revoked";
    if (v.ends_at !== null && v.ends_at <= now) return "time-used-up";
    if (v.expires_at !== null && v.expires_at < now) return "expired";
    const devices = await repo.devicesOf(trx, v.id);
    if (!devices.includes(input.deviceKey) && devices.length >= v.devices_per_code) return "devices-used-up";
    const endsAt = v.ends_at ?? toDbDatetime(new Date(at.getTime() + v.duration_minutes * 60_000));
    const limits = await limitsOf(tctx, v, now, at, endsAt);
    if (typeof limits === "string") return limits;
    if (v.first_used_at === null) await repo.markFirstUse(trx, v.id, now, endsAt);
    await repo.addDevice(trx, v.id, input.deviceKey.slice(0, 64), now);
    return limits;
  });
}

/** What a voucher still grants (RADIUS, on a credential issued by a voucher login), or why not. */
export async function voucherLimits(ctx: Ctx, voucherId: number, at = new Date()): Promise<VoucherLimits | VoucherRefusal> {
  const repo = ctx.repos.vouchers;
  const [own] = await repo.findOwnedVouchersAnyAccount(ctx.db, voucherId);
  if (!own) return "unknown";
  const v = await repo.findByCode(ctx.db, own.code);
  if (!v) return "unknown";
  const now = toDbDatetime(at);
  if (v.revoked_at !== null) return "revoked";
  if (v.ends_at === null) return "unknown";
  return limitsOf(ctx, v, now, at, v.ends_at);
}

/** What a batch's sheet and its creation say of each of its locations: the login page shown there. */
export interface Venue {
  name: string;
  /** The network name the location's login page (its campaign) gives. */
  ssid: string;
  /** The campaign's logo as a data URL (checked when written), or "". */
  logo: string;
  campaign: string;
  /** The page offers the voucher login: without it guests there have nowhere to type a code. */
  offersVouchers: boolean;
}

export async function venuesOf(ctx: Ctx, locations: LocationRow[]): Promise<Venue[]> {
  return Promise.all(
    locations.map(async (l) => {
      const campaign = await campaignShownAt(ctx, l);
      const payload = parsePayload(campaign.payload);
      return { name: l.name, ssid: payload.ssid, logo: payload.logo, campaign: campaign.name, offersVouchers: payload.login_options.voucher === true };
    }),
  );
}

/** Why codes of a new batch will not work at some of its locations (the batch is created all the same). */
export function voucherWarnings(venues: Venue[]): string[] {
  return venues
    .filter((v) => !v.offersVouchers)
    .map(
      (v) =>
        `The login page of ${v.name} (campaign ${v.campaign}) does not offer the voucher login, so guests there have nowhere to enter a code: turn on "Voucher code" in that campaign.`,
    );
}

/** The batch's locations, for its sheet. */
export async function batchLocationRows(ctx: Ctx, accountId: number, batchId: number): Promise<LocationRow[]> {
  const ids = (await ctx.repos.vouchers.batchLocations(ctx.db, [batchId])).map((r) => r.location_id);
  return ctx.repos.locations.findOwnedLive(ctx.db, accountId, ids);
}
