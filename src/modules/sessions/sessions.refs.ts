/** What a route's id parameter may name among RADIUS sessions (see src/http/refs.ts). */
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
  find: ({ ctx, caller }, ids) => ctx.repos.sessions.findOwned(ctx.db, caller.accountId, ids),
  idOf: (row) => row.id,
});
