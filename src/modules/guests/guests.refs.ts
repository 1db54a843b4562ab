/** What a route's id parameter may name among guests (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { GuestRow } from "./guests.repository.js";

/** After campaigns, locations and devices (see Ref.rank). */
export const GUEST_RANK = 40;

/** A guest of the caller's account. */
export const ownedGuest = refsOf<Ctx, GuestRow>({
  rank: GUEST_RANK,
  // A scoped sub-user names only guests who logged in at one of its locations.
  find: async ({ ctx, caller, lock }, ids) => {
    const rows = await ctx.repos.guests.findOwned(ctx.db, caller.accountId, ids, lock);
    if (caller.locationScope === null || rows.length === 0) return rows;
    const seen = await ctx.repos.guests.seenAt(ctx.db, rows.map((g) => g.id), caller.locationScope);
    return rows.filter((g) => seen.has(g.id));
  },
  idOf: (row) => row.id,
});
