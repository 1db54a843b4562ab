/**
 * Passpoint configurations of an account: the secure SSID, its home domain, NAI realm and roaming
 * consortium OIs, and the locations that offer "connect automatically" with them (a location is
 * covered by one configuration at most). docs/passpoint.md.
 */
import { type Caller, inScope } from "../../http/caller.js";
import { nowDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { EapMethod } from "./passpoint.schemas.js";
import type { PasspointConfigRow } from "./passpoint.repository.js";

export const DEFAULT_CREDENTIAL_DAYS = 365;

export interface PasspointInput {
  ssid: string;
  domain: string;
  realm: string;
  /** Normalised OIs (parseRoamingConsortium). */
  ois: string[];
  friendlyName: string | undefined;
  eapMethod: EapMethod | undefined;
  credentialDays: number | undefined;
}

export async function savePasspoint(
  ctx: Ctx,
  accountId: number,
  input: PasspointInput,
  locations: LocationRow[],
  existing: PasspointConfigRow | undefined,
): Promise<{ id: number; created: boolean }> {
  const now = nowDatetime();
  const values = {
    ssid: input.ssid,
    domain: input.domain,
    realm: input.realm,
    roaming_consortium: input.ois.join(","),
    friendly_name: input.friendlyName?.trim() || existing?.friendly_name || input.ssid,
    eap_method: input.eapMethod ?? existing?.eap_method ?? "ttls",
    credential_days: input.credentialDays ?? existing?.credential_days ?? DEFAULT_CREDENTIAL_DAYS,
    last_modified: now,
  };
  let id: number;
  if (existing) {
    id = existing.id;
    await ctx.repos.passpoint.updateConfig(ctx.db, id, values);
  } else {
    id = await ctx.repos.passpoint.insertConfig(ctx.db, { ...values, account_id: accountId, date_created: now });
  }
  await ctx.repos.passpoint.setCoverage(ctx.db, id, locations.map((l) => l.id));
  return { id, created: !existing };
}

export function toPasspointRecord(row: PasspointConfigRow, locationIds: number[]) {
  return {
    id: row.id,
    passpoint_id: row.id,
    location_ids: locationIds,
    ssid: row.ssid,
    domain: row.domain,
    realm: row.realm,
    roaming_consortium: row.roaming_consortium,
    friendly_name: row.friendly_name,
    eap_method: row.eap_method,
    credential_days: row.credential_days,
    date_created: row.date_created,
    last_modified: row.last_modified,
  };
}

/** The account's configurations with the locations each covers; a scoped sub-user sees those covering one of its locations, with only those. */
export async function listPasspoint(ctx: Ctx, caller: Pick<Caller, "accountId" | "locationScope">) {
  const [rows, coverage] = await Promise.all([ctx.repos.passpoint.listConfigs(ctx.db, caller.accountId), ctx.repos.passpoint.coverageOfAccount(ctx.db, caller.accountId)]);
  const c = caller as Caller;
  return rows
    .map((row) => toPasspointRecord(row, coverage.filter((l) => l.config_id === row.id && inScope(c, l.location_id)).map((l) => l.location_id)))
    .filter((r) => caller.locationScope === null || r.location_ids.length > 0);
}

export async function deletePasspoint(ctx: Ctx, row: PasspointConfigRow): Promise<void> {
  await ctx.repos.passpoint.deleteConfig(ctx.db, row.id);
}

/** The configuration that covers a location (what the portal offers after a login there). */
export async function passpointOfLocation(ctx: Ctx, locationId: number): Promise<PasspointConfigRow | undefined> {
  return ctx.repos.passpoint.configOfLocation(ctx.db, locationId);
}
