/** Guests as the API reads them: who logged in where (social-user-list) and their profiles. */
import type { Static } from "@sinclair/typebox";
import type { CampaignRow } from "../campaigns/campaigns.repository.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { GuestRow, LoginDetailRow } from "./guests.repository.js";
import type { SocialUserEntry, SocialUserProfile } from "./guests.schemas.js";
import type { LoginType } from "./login-types.js";

type Entry = Static<typeof SocialUserEntry>;
type Profile = Static<typeof SocialUserProfile>;

export interface GuestListQuery {
  /** Owned locations (deleted ones allowed: their history stays readable). */
  locations: LocationRow[];
  fromDay: string;
  toDay: string;
  campaign?: CampaignRow;
  loginType?: LoginType;
}

/**
 * Guests with at least one login on a local day of the range at the given locations, one entry per
 * guest and location, ordered by social_user_id then location_id.
 */
export async function listSocialUsers(ctx: Ctx, q: GuestListQuery): Promise<Entry[]> {
  const rows = await ctx.repos.guests.listByLoginDays(ctx.db, {
    locationIds: q.locations.map((l) => l.id),
    fromDay: q.fromDay,
    toDay: q.toDay,
    campaignId: q.campaign?.id,
    loginType: q.loginType,
  });
  return rows.map((r) => ({
    social_user_id: r.guest_id,
    location_id: r.location_id,
    campaign_id: r.campaign_id,
    added_datetime: r.first_login_at,
  }));
}

/** Profiles of the guests, in the order given. */
export async function socialUserProfiles(ctx: Ctx, guests: GuestRow[]): Promise<Profile[]> {
  const ids = guests.map((g) => g.id);
  const stats = await ctx.repos.guests.loginStats(ctx.db, ids);
  const details = await ctx.repos.guests.findLoginDetails(
    ctx.db,
    stats.map((s) => s.last_login_id),
  );
  const statsByGuest = new Map(stats.map((s) => [s.guest_id, s]));
  const detailByGuest = new Map(details.map((d) => [d.guest_id, d]));
  // The caller's guests, so one account: every MAC of theirs in one query, latest first.
  const macsByGuest = new Map<number, string[]>();
  const macs = guests.length === 0 ? [] : await ctx.repos.guests.macsOf(ctx.db, guests[0].account_id, ids);
  for (const m of macs) macsByGuest.set(m.guest_id, [...(macsByGuest.get(m.guest_id) ?? []), m.client_mac]);
  return guests.map((g) => ({ ...toProfile(g, statsByGuest.get(g.id)?.logins ?? 0, detailByGuest.get(g.id)), user_macs: macsByGuest.get(g.id) ?? [] }));
}

export function toProfile(g: GuestRow, logins: number, last: LoginDetailRow | undefined): Omit<Profile, "user_macs"> {
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
    terms_accepted: last?.terms_accepted ?? 0,
    terms_version: last?.terms_version ?? "",
    marketing_opt_in: g.marketing_opt_in,
    marketing_opt_in_datetime: g.marketing_opt_in_at ?? "",
    marketing_version: g.marketing_version,
  };
}
