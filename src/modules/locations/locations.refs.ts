/** What a route's id parameter may name among locations (see src/http/refs.ts). */
import { inScope } from "../../http/caller.js";
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "./locations.repository.js";

/** Resolution order of references: campaigns, then locations, then devices (see Ref.rank). */
export const LOCATION_RANK = 20;

/** A live (not deleted) location of the caller's account. */
export const liveLocation = refsOf<Ctx, LocationRow>({
  rank: LOCATION_RANK,
  // Outside a sub-user's scope a location is refused like another account's.
  find: ({ ctx, caller, lock }, ids) => ctx.repos.locations.findOwnedLive(ctx.db, caller.accountId, ids.filter((id) => inScope(caller, id)), lock),
  idOf: (row) => row.id,
});

/** A location of the caller's account, deleted ones included (their history stays readable). */
export const ownedLocation = refsOf<Ctx, LocationRow>({
  rank: LOCATION_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.locations.findOwned(ctx.db, caller.accountId, ids.filter((id) => inScope(caller, id)), lock),
  idOf: (row) => row.id,
});
