/**
 * Controllers of an account (UniFi Network, TP-Link Omada, the northbound portal interface of a RUCKUS
 * SmartZone or RUCKUS One): what the portal calls to let a guest in at locations whose access points
 * are managed by one. Credentials are sealed with the service's
 * secret box (src/db/secret-box.ts) before they reach the database and are never returned.
 */
import { openSecret, sealSecret } from "../../db/secret-box.js";
import { nowDatetime } from "../../db/time.js";
import type { OutboundRule } from "../../outbound-address.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { ControllerRow } from "./controllers.repository.js";
import type { ControllerType } from "./controllers.schemas.js";

export type ControllerCredentials = { username: string; password: string } | { apiKey: string };

/** A controller as the portal uses it: where it is, how it is reached, with its credentials opened. */
export interface ControllerAccess {
  id: number;
  type: ControllerType;
  url: string;
  site: string;
  /** 64 upper-case hex digits, or "". */
  tlsFingerprint: string;
  credentials: ControllerCredentials;
  /** Changes whenever the record does: a session of an older version is not reused. */
  version: string;
  /** What the service last heard from it ("ok", a fault, or "") and when ("" before the first call). */
  lastStatus?: string;
  lastCheckedAt?: string;
}

/** A RUCKUS northbound interface has no site: the zone comes with each guest's redirect. */
export const DEFAULT_SITE: Record<ControllerType, string> = { unifi: "default", omada: "Default", ruckus: "" };

const purpose = (accountId: number) => `controller-credentials:${accountId}`;

/** "aa:bb:..." or "AABB..." -> 64 upper-case hex digits; "" stays "". */
export function normalizeFingerprint(s: string): string {
  return s.replace(/:/g, "").toUpperCase();
}

/** Where the service may call a controller: the outbound address rule, private addresses allowed by CONTROLLER_ALLOW_PRIVATE. */
export function controllerRule(config: { controllerAllowPrivate: boolean }): OutboundRule {
  return { allowPrivate: config.controllerAllowPrivate, variable: "CONTROLLER_ALLOW_PRIVATE" };
}

/** Normalizes a base URL: no trailing slash, no query or fragment. */
export function normalizeControllerUrl(s: string): string {
  const u = new URL(s.trim());
  u.search = "";
  u.hash = "";
  return u.href.replace(/\/+$/, "");
}

export interface ControllerInput {
  name: string;
  type: ControllerType;
  url: string;
  site: string | undefined;
  username: string | undefined;
  password: string | undefined;
  apiKey: string | undefined;
  tlsFingerprint: string | undefined;
}

/**
 * The credentials a write leaves the controller with, or the parameter that is missing. An API key
 * replaces a username and password and the other way round; a write that names neither keeps the
 * stored ones; a new password alone keeps the stored username.
 */
export function credentialsOf(input: ControllerInput, stored: ControllerCredentials | undefined): ControllerCredentials | { missing: string } {
  if (input.apiKey) return { apiKey: input.apiKey };
  const old = stored && "username" in stored ? stored : undefined;
  // A RUCKUS northbound interface may have only a password (SmartZone before 5.2, RUCKUS One's examples name a user).
  if (input.type === "ruckus") {
    const password = input.password || old?.password;
    if (!password) return { missing: "password" };
    return { username: input.username ?? old?.username ?? "", password };
  }
  if (input.username || input.password) {
    const username = input.username || old?.username;
    const password = input.password || old?.password;
    if (!username) return { missing: "username" };
    if (!password) return { missing: "password" };
    return { username, password };
  }
  if (stored) return stored;
  return { missing: "username" };
}

export function openCredentials(key: Buffer, row: ControllerRow): ControllerCredentials | undefined {
  const plain = openSecret(key, purpose(row.account_id), row.credentials);
  if (plain === undefined) return undefined;
  const v = JSON.parse(plain) as { u?: string; p?: string; k?: string };
  if (typeof v.k === "string") return { apiKey: v.k };
  if (typeof v.u === "string" && typeof v.p === "string") return { username: v.u, password: v.p };
  return undefined;
}

function sealCredentials(key: Buffer, accountId: number, c: ControllerCredentials): string {
  const plain = "apiKey" in c ? { k: c.apiKey } : { u: c.username, p: c.password };
  return sealSecret(key, purpose(accountId), JSON.stringify(plain));
}

export async function saveController(
  ctx: Ctx,
  key: Buffer,
  accountId: number,
  input: ControllerInput,
  credentials: ControllerCredentials,
  existing: ControllerRow | undefined,
): Promise<{ row: ControllerRow; created: boolean }> {
  const now = nowDatetime();
  const values = {
    name: input.name,
    type: input.type,
    url: normalizeControllerUrl(input.url),
    site: input.site ?? (existing && existing.type === input.type ? existing.site : DEFAULT_SITE[input.type]),
    auth: "apiKey" in credentials ? "api_key" : "password",
    credentials: sealCredentials(key, accountId, credentials),
    tls_fingerprint: input.tlsFingerprint === undefined ? (existing?.tls_fingerprint ?? "") : normalizeFingerprint(input.tlsFingerprint),
    last_modified: now,
  };
  let id: number;
  if (existing) {
    id = existing.id;
    await ctx.repos.controllers.update(ctx.db, id, values);
  } else {
    id = await ctx.repos.controllers.insert(ctx.db, { ...values, account_id: accountId, date_created: now });
  }
  const [row] = await ctx.repos.controllers.findOwned(ctx.db, accountId, [id]);
  return { row, created: !existing };
}

export async function deleteController(ctx: Ctx, row: ControllerRow): Promise<void> {
  await ctx.repos.controllers.remove(ctx.db, row.id);
}

export async function assignController(ctx: Ctx, location: LocationRow, controller: ControllerRow | null): Promise<void> {
  await ctx.repos.controllers.assign(ctx.db, location.id, controller?.id ?? null);
}

/** A controller with its credentials opened, or undefined when they cannot be opened. */
export function controllerAccessOf(key: Buffer, row: ControllerRow): ControllerAccess | undefined {
  const credentials = openCredentials(key, row);
  if (!credentials) return undefined;
  return {
    id: row.id,
    type: row.type as ControllerType,
    url: row.url,
    site: row.site,
    tlsFingerprint: row.tls_fingerprint,
    credentials,
    version: `${row.last_modified}/${row.credentials.slice(-16)}`,
    lastStatus: row.last_status,
    lastCheckedAt: row.last_checked_at,
  };
}

/** The controller of a location with its credentials opened, or undefined when it has none (or they cannot be opened). */
export async function controllerOfLocation(ctx: Ctx, key: Buffer, locationId: number): Promise<ControllerAccess | undefined> {
  const row = await ctx.repos.controllers.findForLocation(ctx.db, locationId);
  return row ? controllerAccessOf(key, row) : undefined;
}

export function toControllerRecord(row: ControllerRow, locationIds: number[]) {
  return {
    id: row.id,
    controller_id: row.id,
    name: row.name,
    type: row.type,
    url: row.url,
    site: row.site,
    auth: row.auth,
    tls_fingerprint: row.tls_fingerprint,
    location_ids: locationIds,
    last_status: row.last_status,
    last_message: row.last_message,
    last_checked_at: row.last_checked_at,
    date_created: row.date_created,
    last_modified: row.last_modified,
  };
}

export async function listControllers(ctx: Ctx, accountId: number) {
  const [rows, links] = await Promise.all([
    ctx.repos.controllers.listByAccount(ctx.db, accountId),
    ctx.repos.controllers.assignmentsOfAccount(ctx.db, accountId),
  ]);
  return rows.map((row) => toControllerRecord(row, links.filter((l) => l.controller_id === row.id).map((l) => l.location_id)));
}
