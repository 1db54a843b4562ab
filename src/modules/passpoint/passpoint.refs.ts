/** What a route's id parameter may name among Passpoint configurations and credentials (see src/http/refs.ts). */
import { inScope } from "../../http/caller.js";
import { refsOf } from "../../http/refs.js";
import type { Ctx } from "../context.js";
import type { PasspointConfigRow, PasspointCredentialRow } from "./passpoint.repository.js";

/** After campaigns, locations, devices, controllers and guests (see Ref.rank). */
export const PASSPOINT_RANK = 70;
export const PASSPOINT_CREDENTIAL_RANK = 75;

/** A configuration of the caller's account; a scoped sub-user names only one whose locations are all in its scope. */
export const ownedPasspoint = refsOf<Ctx, PasspointConfigRow>({
  rank: PASSPOINT_RANK,
  find: async ({ ctx, caller, lock }, ids) => {
    const rows = await ctx.repos.passpoint.findOwnedConfigs(ctx.db, caller.accountId, ids, lock);
    if (caller.locationScope === null || rows.length === 0) return rows;
    const coverage = await ctx.repos.passpoint.coverageOfAccount(ctx.db, caller.accountId);
    return rows.filter((r) => coverage.every((l) => l.config_id !== r.id || inScope(caller, l.location_id)));
  },
  idOf: (row) => row.id,
});

/** A credential of the caller's account; a scoped sub-user names only those issued at its locations. */
export const ownedPasspointCredential = refsOf<Ctx, PasspointCredentialRow>({
  rank: PASSPOINT_CREDENTIAL_RANK,
  find: async ({ ctx, caller, lock }, ids) => {
    const rows = await ctx.repos.passpoint.findOwnedCredentials(ctx.db, caller.accountId, ids, lock);
    return rows.filter((r) => inScope(caller, r.location_id));
  },
  idOf: (row) => row.id,
});
