/** Guests as the API reads them: who logged in where (social-user-list) and their profiles. */
import type { Static } from "@sinclair/typebox";
import type { DB } from "../../db/database.js";
import { type ErrorBag, msg } from "../../errors.js";
import { checkDateRange, parseIdList } from "../../http/validation.js";
import { campaignRepository } from "../campaigns/campaigns.repository.js";
import { requireOwnedLocations } from "../locations/locations.service.js";
import { type GuestRow, type LoginDetailRow, guestRepository } from "./guests.repository.js";
import {
  GUEST_LIST_MAX_DAYS,
  MAX_GUEST_IDS,
  type SocialUserEntry,
  type SocialUserListParams,
  type SocialUserProfile,
} from "./guests.schemas.js";

type ListParams = Static<typeof SocialUserListParams>;
type Entry = Static<typeof SocialUserEntry>;
type Profile = Static<typeof SocialUserProfile>;

/**
 * Guests with at least one login on a local day of the range at the given locations (owned; deleted
 * ones allowed, their history stays readable), one entry per guest and location, ordered by
 * social_user_id then location_id.
 */
export async function listSocialUsers(db: DB, accountId: number, p: ListParams, bag: ErrorBag): Promise<Entry[]> {
  const ids = parseIdList(p.location_ids, "location_ids", bag, MAX_GUEST_IDS);
  await requireOwnedLocations(db, accountId, ids, "location_ids", bag);
  if (p.campaign_id !== undefined && !bag.has("campaign_id")) {
    // Own campaigns (deleted too: history) and the built-in templates guests may have logged in through.
    const found = await campaignRepository.findReadable(db, accountId, [p.campaign_id]);
    if (found.length === 0) bag.add("campaign_id", msg.invalid("campaign_id"));
  }
  checkDateRange(p.from_date, p.to_date, GUEST_LIST_MAX_DAYS, bag);
  bag.throwIfAny();
  const rows = await guestRepository.listByLoginDays(db, {
    locationIds: ids,
    fromDay: p.from_date,
    toDay: p.to_date,
    campaignId: p.campaign_id,
    loginType: p.social_network,
  });
  return rows.map((r) => ({
    social_user_id: r.guest_id,
    location_id: r.location_id,
    campaign_id: r.campaign_id,
    added_datetime: r.first_login_at,
  }));
}

/** Profiles of the account's guests, in the order asked; any id not the account's is an error. */
export async function socialUserProfiles(db: DB, accountId: number, userIds: string, bag: ErrorBag): Promise<Profile[]> {
  const ids = parseIdList(userIds, "user_ids", bag, MAX_GUEST_IDS);
  bag.throwIfAny();
  const guests = await guestRepository.findOwned(db, accountId, ids);
  const byId = new Map(guests.map((g) => [g.id, g]));
  if (ids.some((id) => !byId.has(id))) bag.add("user_ids", msg.invalid("user_ids"));
  bag.throwIfAny();

  const stats = await guestRepository.loginStats(db, ids);
  const details = await guestRepository.findLoginDetails(
    db,
    stats.map((s) => s.last_login_id),
  );
  const statsByGuest = new Map(stats.map((s) => [s.guest_id, s]));
  const detailByGuest = new Map(details.map((d) => [d.guest_id, d]));
  return ids.map((id) => toProfile(byId.get(id)!, statsByGuest.get(id)?.logins ?? 0, detailByGuest.get(id)));
}

export function toProfile(g: GuestRow, logins: number, last: LoginDetailRow | undefined): Profile {
  return {
    social_user_id: g.id,
    age: g.age,
    access_token: "",
    app_info_id: 0,
    browser_name: last?.browser_name ?? "",
    campaign_id: last?.campaign_id ?? 0,
    campaign_name: last?.campaign_name ?? "",
    device_id: last?.device_id ?? 0,
    device_mac: last?.device_mac ?? "",
    email: g.email,
    full_name: g.full_name,
    gender: g.gender,
    phone_number: g.phone_number,
    birthdate: g.birthdate,
    locale: g.locale,
    location_id: last?.location_id ?? 0,
    location_name: last?.location_name ?? "",
    picture_url: g.picture_url,
    location_access: null,
    return: Math.max(0, logins - 1),
    radius_session_total_time: Number(g.radius_session_total_time),
    radius_total_bandwidth_input: Number(g.radius_total_bandwidth_input),
    radius_total_bandwidth_output: Number(g.radius_total_bandwidth_output),
    radius_session_first_datetime: g.radius_session_first_datetime ?? "",
    radius_session_last_datetime: g.radius_session_last_datetime ?? "",
    social_network: g.social_network,
    social_network_id: g.network_user_id,
    timezone: last?.timezone ?? "",
    updated_at: g.updated_at,
    user_id: g.id,
    user_device_agent: last?.user_agent ?? "",
    user_device_brand: last?.device_brand ?? "",
    user_device_os_name: last?.os_name ?? "",
    user_device_os_version: last?.os_version ?? "",
    user_device_type: last?.device_type ?? "",
    user_mac: last?.client_mac ?? "",
    username: g.username,
    created_at: g.created_at,
    last_login_datetime: last?.logged_at ?? "",
  };
}
