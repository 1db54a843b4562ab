/** What a route's id parameter may name among RADIUS sessions (see src/http/refs.ts). */
import { inScope } from "../../http/caller.js";
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { OwnedSessionRow } from "./sessions.repository.js";

/** After campaigns, locations and devices (see Ref.rank). */
export const SESSION_RANK = 50;

/**
 * A session reported by a device of the caller's account. Sessions are written by RADIUS, never
 * by the API, so no row lock is taken: a disconnect only reads it.
 */
export const ownedSession = refsOf<Ctx, OwnedSessionRow>({
  rank: SESSION_RANK,
  find: async ({ ctx, caller }, ids) =>
    (await ctx.repos.sessions.findOwned(ctx.db, caller.accountId, ids)).filter((s) => caller.locationScope === null || (s.location_id !== null && inScope(caller, s.location_id))),
  idOf: (row) => row.id,
});
