/** What a route's id parameter may name among devices (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { DeviceRow } from "./devices.repository.js";

/** After campaigns and locations (see Ref.rank). */
export const DEVICE_RANK = 30;

/** A device of the caller's account. */
export const ownedDevice = refsOf<Ctx, DeviceRow>({
  rank: DEVICE_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.devices.findOwned(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});
