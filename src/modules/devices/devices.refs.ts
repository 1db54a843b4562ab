/** What a route's id parameter may name among devices (see src/http/refs.ts). */
import { inScope } from "../../http/caller.js";
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { DeviceRow } from "./devices.repository.js";

/** After campaigns and locations (see Ref.rank). */
export const DEVICE_RANK = 30;

/** A device of the caller's account. */
export const ownedDevice = refsOf<Ctx, DeviceRow>({
  rank: DEVICE_RANK,
  // A scoped sub-user names only the devices of its locations (not unassigned ones).
  find: async ({ ctx, caller, lock }, ids) =>
    (await ctx.repos.devices.findOwned(ctx.db, caller.accountId, ids, lock)).filter((d) => caller.locationScope === null || (d.location_id !== null && inScope(caller, d.location_id))),
  idOf: (row) => row.id,
});
