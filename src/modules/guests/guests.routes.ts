import { type ApiRouter, dateRangeCheck, ok } from "../../http/api-route.js";
import { readableCampaign } from "../campaigns/campaigns.refs.js";
import type { Ctx } from "../context.js";
import { ownedLocation } from "../locations/locations.refs.js";
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
