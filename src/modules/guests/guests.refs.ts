/** What a route's id parameter may name among guests (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { GuestRow } from "./guests.repository.js";

/** After campaigns, locations and devices (see Ref.rank). */
export const GUEST_RANK = 40;

/** A guest of the caller's account. */
export const ownedGuest = refsOf<Ctx, GuestRow>({
  rank: GUEST_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.guests.findOwned(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});
