/** What a route's id parameter may name among campaigns (see src/http/refs.ts). */
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { CampaignRow } from "./campaigns.repository.js";

/** Campaigns are resolved (and locked) first, before locations and devices (see Ref.rank). */
export const CAMPAIGN_RANK = 10;

/** An own campaign (deleted ones included: history) or a built-in template. */
export const readableCampaign = refsOf<Ctx, CampaignRow>({
  rank: CAMPAIGN_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.campaigns.findReadable(ctx.db, caller.accountId, ids, { lock }),
  idOf: (row) => row.id,
});

/** An own live campaign or a built-in template: what may be copied or shown. */
export const usableCampaign = refsOf<Ctx, CampaignRow>({
  rank: CAMPAIGN_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.campaigns.findReadable(ctx.db, caller.accountId, ids, { liveOnly: true, lock }),
  idOf: (row) => row.id,
});

/** An own live campaign: what may be changed or deleted (templates are written by nobody). */
export const ownCampaign = refsOf<Ctx, CampaignRow>({
  rank: CAMPAIGN_RANK,
  find: ({ ctx, caller, lock }, ids) => ctx.repos.campaigns.findOwnedLive(ctx.db, caller.accountId, ids, lock),
  idOf: (row) => row.id,
});
