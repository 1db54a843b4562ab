import { type ApiRouter, dateRangeCheck, ok } from "../../http/api-route.js";
import { readableCampaign } from "../campaigns/campaigns.refs.js";
import { ownedLocation } from "../locations/locations.refs.js";
import { openGuestExport } from "./guest-export.service.js";
import * as rights from "./guest-rights.service.js";
import { ownedGuest } from "./guests.refs.js";
import * as S from "./guests.schemas.js";
import * as guests from "./guests.service.js";

const tags = ["Guests"];

export function guestRoutes(api: ApiRouter<rights.ErasureCtx>): void {
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

  api.route({
    method: "GET",
    url: "/api/export-social-user",
    summary: "Everything held about one guest, as JSON (the right of access)",
    description:
      "The guest record, every login, MAC, visit, RADIUS session (its own, and its MACs' on the account's devices), " +
      "usage, one-time credential (without passwords), text-message code (without codes) and controller grant.",
    tags,
    access: "read",
    params: S.GuestIdParams,
    refs: { user_id: ownedGuest.one() },
    response: S.GuestExportResponse,
    handler: async ({ ctx, reply }, _p, r) => {
      reply.header("cache-control", "no-store");
      return ok({ data: await rights.exportGuest(ctx, r.user_id) });
    },
  });

  api.route({
    method: "POST",
    url: "/api/erase-social-user",
    summary: "Erase a guest's personal data everywhere (the right to erasure); analytics totals stay",
    description:
      "Deletes the profile, identity, MACs, user agents, one-time credentials, text-message codes and grants; logins, " +
      "visits, usage and RADIUS sessions are kept only as anonymous counts under a new id that nothing links to the " +
      "guest. Queues guest.erased for the account's webhooks. The user_id no longer exists afterwards.",
    tags,
    access: "write",
    params: S.GuestIdParams,
    refs: { user_id: ownedGuest.one("update") },
    response: S.GuestEraseResponse,
    handler: async ({ ctx }, _p, r) => {
      await rights.eraseGuest(ctx, r.user_id);
      return ok({ message: "Guest has been successfully erased." });
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-account-retention",
    summary: "The guest retention period in force for the caller's account (0: off)",
    description: "What set-account-retention last set; every user of the account may read it, the owner alone sets it.",
    tags,
    access: "read",
    params: S.GetRetentionParams,
    response: S.GetRetentionResponse,
    handler: async ({ ctx, caller }) => ok({ retention_days: await rights.retentionOf(ctx, caller.accountId) }),
  });

  api.route({
    method: "POST",
    url: "/api/set-account-retention",
    summary: "Erase guests automatically when not seen for retention_days (0: off)",
    description:
      "The account owner only. A job inside the service (one instance at a time) erases, as erase-social-user does, " +
      "every guest with no login and no RADIUS session for that many days; it runs every RETENTION_INTERVAL_MS (an hour).",
    tags,
    access: "parent",
    params: S.RetentionParams,
    response: S.RetentionResponse,
    handler: async ({ ctx, caller }, p) => {
      await rights.setRetention(ctx, caller.accountId, p.retention_days);
      return ok({
        message: p.retention_days === 0 ? "Retention has been turned off." : "Retention has been successfully set.",
        retention_days: p.retention_days,
      });
    },
  });
}
