import { type ApiRouter, dateRangeCheck, ok } from "../../http/api-route.js";
import { readableCampaign } from "../campaigns/campaigns.refs.js";
import type { Ctx } from "../context.js";
import { ownedLocation } from "../locations/locations.refs.js";
import { openGuestExport } from "./guest-export.service.js";
import { ownedGuest } from "./guests.refs.js";
import * as S from "./guests.schemas.js";
import * as guests from "./guests.service.js";

const tags = ["Guests"];

export function guestRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "GET",
    url: "/api/social-user-list",
    summary: "Guests who logged in at the given locations within a date range",
    description:
      "One entry per guest and location, for guests with at least one login on a day of the range (days are " +
      "calendar days in each location's own time zone). added_datetime is the guest's first login at that " +
      "location, campaign_id the campaign of that first login. The campaign_id and social_network filters " +
      "apply to the logins in the range. Ordered by social_user_id, then location_id.",
    tags,
    access: "read",
    params: S.SocialUserListParams,
    // Deleted locations and campaigns too: their history stays readable. Templates: guests log in through them.
    refs: { location_ids: ownedLocation.list(S.MAX_GUEST_IDS), campaign_id: readableCampaign.one() },
    checks: [dateRangeCheck(S.GUEST_LIST_MAX_DAYS)],
    response: S.SocialUserListResponse,
    handler: async ({ ctx }, p, r) => {
      const data = await guests.listSocialUsers(ctx, {
        locations: r.location_ids,
        fromDay: p.from_date,
        toDay: p.to_date,
        campaign: r.campaign_id,
        loginType: p.social_network,
      });
      return ok({ data });
    },
  });

  api.route({
    method: "GET",
    url: "/api/social-user-export",
    summary: "Download social-user-list's guests as a CSV file",
    description:
      "Same identifier, locations and filters as social-user-list (the range up to 366 days), plus format=csv. One row per " +
      "guest and location, ordered by location_id, then social_user_id. first_seen_utc / last_seen_utc: the guest's first " +
      "and latest login at that location (UTC, whatever the range); mac: the client MAC of that latest login; visits: the " +
      "days of the range the guest was seen there; data_used_bytes: octets in and out there on those days (RADIUS " +
      "accounting). Cells starting with = + - @, a tab or a carriage return are prefixed with a single quote. A database " +
      "failure after the download started aborts the response (no final chunk): a file that ends cleanly is complete.",
    tags,
    access: "read",
    params: S.SocialUserExportParams,
    refs: { location_ids: ownedLocation.list(S.MAX_GUEST_IDS), campaign_id: readableCampaign.one() },
    checks: [dateRangeCheck(S.GUEST_EXPORT_MAX_DAYS)],
    response: S.SocialUserExportResponse,
    produces: ["text/csv"],
    handler: async ({ ctx, caller, reply }, p, r) => {
      const { stream } = await openGuestExport(ctx, caller.accountId, {
        locations: r.location_ids,
        fromDay: p.from_date,
        toDay: p.to_date,
        campaign: r.campaign_id,
        loginType: p.social_network,
      });
      reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="guests-${p.from_date}-to-${p.to_date}.csv"`)
        .header("cache-control", "no-store");
      return stream;
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-social-user-profile",
    summary: "Guest profiles by social_user_id, in the order given",
    description:
      "Device, browser, location and campaign fields come from the guest's latest login; `return` counts the " +
      "logins after the first; radius_* are the RADIUS accounting totals.",
    tags,
    access: "read",
    params: S.SocialUserProfileParams,
    refs: { user_ids: ownedGuest.list(S.MAX_GUEST_IDS) },
    response: S.SocialUserProfileResponse,
    handler: async ({ ctx }, _p, r) => ok({ data: await guests.socialUserProfiles(ctx, r.user_ids) }),
  });
}
