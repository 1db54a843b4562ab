/** What a route's id parameter may name among webhooks (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { WebhookRow } from "./webhooks.repository.js";

/** After guests (see Ref.rank). */
export const WEBHOOK_RANK = 50;

/** A live (not deleted) webhook of the caller's account. */
export const ownedWebhook = refsOf<Ctx, WebhookRow>({
  rank: WEBHOOK_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.webhooks.findOwned(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});
