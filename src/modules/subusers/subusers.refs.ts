/** What a route's id parameter may name among sub-users (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { SubUserRow } from "./subusers.repository.js";

/** After every other record (see Ref.rank). */
export const SUB_USER_RANK = 60;

/** A sub-user of the caller's account, disabled ones included. */
export const ownedSubUser = refsOf<Ctx, SubUserRow>({
  rank: SUB_USER_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.subUsers.findOwned(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});
