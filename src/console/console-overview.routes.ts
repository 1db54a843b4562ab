/**
 * `GET /console/api/overview`: the overview page's series for one location or every location the
 * caller may see, declared through the API's pipeline like the console's other routes.
 */
import type { AppDeps } from "../app-deps.js";
import { type ApiRouter, dateRangeCheck, ok } from "../http/api-route.js";
import { inScope } from "../http/caller.js";
import { OVERVIEW_MAX_DAYS } from "../modules/analytics/analytics.schemas.js";
import { ClosedDaysCache } from "../modules/analytics/closed-days-cache.js";
import { overview } from "../modules/analytics/overview.service.js";
import { liveLocation } from "../modules/locations/locations.refs.js";
import * as S from "./console.schemas.js";

export function overviewRoutes(api: ApiRouter<AppDeps>): void {
  const cache = new ClosedDaysCache();

  api.route({
    method: "GET",
    url: "/console/api/overview",
    via: "console",
    summary: "The overview's series for one location or every location the caller may see",
    tags: ["Console"],
    access: "read",
    params: S.OverviewParams,
    // 0 names every location (in the caller's scope).
    refs: { location_id: liveLocation.optionalOne() },
    // At most OVERVIEW_MAX_DAYS days, both ends counted.
    checks: [dateRangeCheck(OVERVIEW_MAX_DAYS - 1)],
    response: S.OverviewResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const chosen = r.location_id ? [r.location_id] : (await ctx.repos.locations.listLive(ctx.db, caller.accountId)).filter((l) => inScope(caller, l.id));
      return ok({ data: await overview(ctx, cache, chosen, p.from_date, p.to_date) });
    },
  });
}
