/** Locations made through the API and logins recorded through the data layer, for guest and analytics tests. */
import { type LoginInput, recordLogin } from "../../../src/modules/guests/guest-activity.service.js";
import type { LoginType } from "../../../src/modules/guests/login-types.js";
import { type TestApp, locationParams } from "../../helpers/app.js";

export const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
export const ANDROID_UA =
  "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";

export async function createLocation(t: TestApp, timezone: string, name = "Cafe", identifier?: string): Promise<number> {
  const res = await t.call("POST", "create-or-update-location", locationParams({ timezone, location_name: name }), { identifier });
  if (res.statusCode !== 200) throw new Error(`create location failed: ${JSON.stringify(res.body)}`);
  return res.body.location_id;
}

export interface LoginSpec {
  accountId: number;
  locationId: number;
  timezone: string;
  at: string;
  identity: string;
  loginType?: LoginType;
  campaignId?: number;
  deviceId?: number | null;
  clientMac?: string;
  userAgent?: string;
  profile?: LoginInput["profile"];
}

export async function login(t: TestApp, s: LoginSpec): Promise<{ guestId: number; loginId: number }> {
  return recordLogin(t.db, {
    accountId: s.accountId,
    locationId: s.locationId,
    timezone: s.timezone,
    campaignId: s.campaignId ?? 1,
    deviceId: s.deviceId ?? null,
    loginType: s.loginType ?? "Cuser",
    identity: s.identity,
    profile: s.profile ?? {},
    clientMac: s.clientMac ?? "",
    userAgent: s.userAgent ?? IPHONE_UA,
    at: new Date(s.at),
  });
}
