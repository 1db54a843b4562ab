/** What a route's id parameter may name among vouchers (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { VoucherBatchRow, VoucherRow } from "./vouchers.repository.js";

/** After campaigns, locations, devices, controllers and guests (see Ref.rank): batches, then codes. */
export const VOUCHER_BATCH_RANK = 50;
export const VOUCHER_RANK = 55;

/** A voucher batch of the caller's account. */
export const ownBatch = refsOf<Ctx, VoucherBatchRow>({
  rank: VOUCHER_BATCH_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.vouchers.findOwnedBatches(ctx.db, caller.accountId, ids, lock, caller.locationScope),
  idOf: (row) => row.id,
});

/** A voucher code of the caller's account. */
export const ownVoucher = refsOf<Ctx, VoucherRow>({
  rank: VOUCHER_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.vouchers.findOwnedVouchers(ctx.db, caller.accountId, ids, lock, caller.locationScope),
  idOf: (row) => row.id,
});
