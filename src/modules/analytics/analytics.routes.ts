import { type ApiRouter, dateRangeCheck, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { ownedLocation } from "../locations/locations.refs.js";
import * as S from "./analytics.schemas.js";
import * as analytics from "./analytics.service.js";
import { ClosedDaysCache } from "./closed-days-cache.js";

const tags = ["Analytics"];

const common =
  "location_id takes one id or a comma-separated list (the counts add up). Days are calendar days in each " +
  "location's own time zone; categories list every day of the range (or, with agg=WEEK/MONTH, the first day " +
  "inside the range of each ISO week / calendar month) and every data array has one number per category.";

export function analyticsRoutes(api: ApiRouter<Ctx>): void {
  // One per app: it holds counts of this app's database.
  const cache = new ClosedDaysCache();
  // Deleted locations too: their history stays readable.
  const refs = { location_id: ownedLocation.list(S.ANALYTICS_MAX_LOCATIONS) };
  const checks = [dateRangeCheck(S.ANALYTICS_MAX_DAYS)];

  api.route({
    method: "GET",
    url: "/api/get-social-logins",
    summary: "Logins per day and login type",
    description: `One series per login type (Facebook, Custom, Instagram, Twitter, SMS, Click-through, E-mail, LinkedIn, in that order). ${common}`,
    tags,
    access: "read",
    params: S.AnalyticsParams,
    refs,
    checks,
    response: S.AnalyticsSeriesResponse,
    handler: async ({ ctx }, p, r) =>
      ok(await analytics.socialLogins(ctx, cache, { locations: r.location_id, fromDay: p.from_date, toDay: p.to_date, agg: p.agg ?? "DAY" })),
  });

  api.route({
    method: "GET",
    url: "/api/get-visits",
    summary: "Visits (distinct guests connected) per day",
    description: `One series named Visits. A week or month is the sum of its daily visits. ${common}`,
    tags,
    access: "read",
    params: S.AnalyticsParams,
    refs,
    checks,
    response: S.AnalyticsSeriesResponse,
    handler: async ({ ctx }, p, r) =>
      ok(await analytics.visits(ctx, cache, { locations: r.location_id, fromDay: p.from_date, toDay: p.to_date, agg: p.agg ?? "DAY" })),
  });
}
