import type { FastifyInstance } from "fastify";
import { ok, registerApiRoute } from "../../http/api-route.js";
import * as S from "./guests.schemas.js";
import * as guests from "./guests.service.js";

const tags = ["Guests"];

export function guestRoutes(app: FastifyInstance): void {
  registerApiRoute(app, {
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
    response: S.SocialUserListResponse,
    handler: async ({ db, caller }, p, bag) => ok({ data: await guests.listSocialUsers(db, caller.accountId, p, bag) }),
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/get-social-user-profile",
    summary: "Guest profiles by social_user_id, in the order given",
    description:
      "Device, browser, location and campaign fields come from the guest's latest login; `return` counts the " +
      "logins after the first; radius_* are the RADIUS accounting totals.",
    tags,
    access: "read",
    params: S.SocialUserProfileParams,
    response: S.SocialUserProfileResponse,
    handler: async ({ db, caller }, p, bag) => ok({ data: await guests.socialUserProfiles(db, caller.accountId, p.user_ids, bag) }),
  });
}
