/** What a route's id parameter may name among guest automations (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { AutomationRow } from "./automations.repository.js";

/** After guests (see Ref.rank). */
export const AUTOMATION_RANK = 55;

/** A live (not deleted) automation of the caller's account. */
export const ownedAutomation = refsOf<Ctx, AutomationRow>({
  rank: AUTOMATION_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.automations.findOwned(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});

/** An automation of the caller's account, deleted ones included (the message log names them). */
export const anyOwnedAutomation = refsOf<Ctx, AutomationRow>({
  rank: AUTOMATION_RANK,
  find: ({ ctx, caller }, ids) => ctx.repos.automations.findOwnedAny(ctx.db, caller.accountId, ids),
  idOf: (row) => row.id,
});
