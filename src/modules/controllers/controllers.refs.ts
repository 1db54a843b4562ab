/** What a route's id parameter may name among controllers (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { ControllerRow } from "./controllers.repository.js";

/** After campaigns, locations and devices, before guests (see Ref.rank). */
export const CONTROLLER_RANK = 35;

/** A controller of the caller's account. */
export const ownedController = refsOf<Ctx, ControllerRow>({
  rank: CONTROLLER_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.controllers.findOwned(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});
