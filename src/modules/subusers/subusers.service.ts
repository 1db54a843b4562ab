/** Sub-users: people who act inside a parent account with an identifier of their own. */
import type { Static } from "@sinclair/typebox";
import { nowDatetime } from "../../db/time.js";
import { isUniqueViolation, transaction } from "../../db/transaction.js";
import { domainErrors } from "../../domain-errors.js";
import { hashIdentifier, newIdentifier } from "../accounts/identifier.js";
import type { Ctx } from "../context.js";
import type { LocationRow } from "../locations/locations.repository.js";
import { mailbox } from "../accounts/mailbox.js";
import { hashPassword, passwordMatches } from "../accounts/password.js";
import type { SubUserRecord } from "./subusers.schemas.js";
import type { SubUserRow } from "./subusers.repository.js";
import { scopeOf, scopeText } from "../accounts/scope.js";

export function toSubUserRecord(row: SubUserRow): Static<typeof SubUserRecord> {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone_number: row.phone_number ?? "",
    quickreport: row.quickreport,
    readonly: row.readonly,
    quickreport_location_id: row.quickreport_location_id,
    disabled: row.disabled_at === null ? 0 : 1,
    location_ids: scopeOf(row.location_scope) ?? [],
    date_created: row.date_created,
    last_modified: row.last_modified,
  };
}

/** Whether a sub-user (of any account) has this e-mail address. */
export async function isEmailTaken(ctx: Ctx, email: string): Promise<boolean> {
  return (await ctx.repos.subUsers.findByEmail(ctx.db, mailbox(email))) !== undefined;
}

export interface SubUserInput {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber?: string;
  password: string;
  quickreport: boolean;
  readonly: boolean;
  /** The locations it may see and change; empty or absent for every location of the account. */
  locationIds?: number[];
}

/**
 * Creates the sub-user and its own identifier, which is returned here and never again. The e-mail
 * is unique across the service (domain error email-taken). Hashes the password before it opens a
 * transaction: the hash is slow on purpose and must not hold the database.
 */
export async function createSubUser(
  ctx: Ctx,
  accountId: number,
  input: SubUserInput,
  quickreportLocation: LocationRow,
): Promise<{ subUserId: number; identifier: string }> {
  const passwordHash = await hashPassword(input.password);
  const identifier = newIdentifier();
  const now = nowDatetime();
  try {
    const subUserId = await transaction(ctx.db, async (trx) => {
      // The location may have been deleted while the password was hashed; locked until the commit.
      const [live] = await ctx.repos.locations.findOwnedLive(trx, accountId, [quickreportLocation.id], "share");
      if (!live) throw domainErrors.locationGone();
      const id = await ctx.repos.subUsers.insert(trx, {
        account_id: accountId,
        first_name: input.firstName.trim(),
        last_name: input.lastName.trim(),
        email: mailbox(input.email),
        phone_number: input.phoneNumber ?? null,
        password_hash: passwordHash,
        quickreport: input.quickreport ? 1 : 0,
        readonly: input.readonly ? 1 : 0,
        quickreport_location_id: quickreportLocation.id,
        location_scope: scopeText(input.locationIds ?? []),
        date_created: now,
        last_modified: now,
      });
      await ctx.repos.accounts.insertIdentifier(trx, accountId, id, hashIdentifier(identifier), now);
      return id;
    });
    return { subUserId, identifier };
  } catch (err) {
    // Two creates of one address at once: the unique index lets one through.
    if (isUniqueViolation(err)) throw domainErrors.emailTaken();
    throw err;
  }
}

/**
 * The sub-user with this e-mail (any case) and password, or undefined. An unknown e-mail and a
 * wrong password give the same answer in the same time (a key is derived in both cases; the
 * comparison is constant-time).
 */
export async function verifySubUserPassword(
  ctx: Ctx,
  email: string,
  password: string,
): Promise<{ subUserId: number; accountId: number; readonly: boolean } | undefined> {
  const row = await ctx.repos.subUsers.findCredentialsByEmail(ctx.db, mailbox(email));
  // A disabled sub-user gets the answer of a wrong password, after the same work.
  if (!(await passwordMatches(password, row?.password_hash)) || !row || row.disabled_at !== null) return undefined;
  return { subUserId: row.id, accountId: row.account_id, readonly: row.readonly === 1 };
}

/**
 * The locations a sub-user's quick report covers: its quickreport_location_id while that location
 * is live, else every live location of its account. The one place that says which locations a
 * sub-user's reports are about (location scopes narrow it here).
 */
export async function quickReportLocationsOf(ctx: Ctx, sub: SubUserRow): Promise<LocationRow[]> {
  const [own] = await ctx.repos.locations.findOwnedLive(ctx.db, sub.account_id, [sub.quickreport_location_id]);
  return own ? [own] : ctx.repos.locations.listLive(ctx.db, sub.account_id);
}

/** What update-sub-user may change; absent fields keep their value. */
export interface SubUserChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  password?: string;
  quickreport?: boolean;
  readonly?: boolean;
  quickreportLocationId?: number;
  /** Empty: every location of the account. */
  locationIds?: number[];
}

/**
 * Changes a sub-user in the route's transaction. A new password ends its console sessions (its API
 * identifier stays, as an owner's does); a new e-mail must be free across the service. Read-only,
 * scope and the rest take effect at its next request on every instance (identifiers and sub-users
 * are catalogue rows: caller.ts).
 */
export async function updateSubUser(ctx: Ctx, sub: SubUserRow, changes: SubUserChanges, passwordHash: string | undefined): Promise<void> {
  const values = {
    ...(changes.firstName !== undefined ? { first_name: changes.firstName.trim() } : {}),
    ...(changes.lastName !== undefined ? { last_name: changes.lastName.trim() } : {}),
    ...(changes.email !== undefined ? { email: mailbox(changes.email) } : {}),
    ...(changes.phoneNumber !== undefined ? { phone_number: changes.phoneNumber === "" ? null : changes.phoneNumber } : {}),
    ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
    ...(changes.quickreport !== undefined ? { quickreport: changes.quickreport ? 1 : 0 } : {}),
    ...(changes.readonly !== undefined ? { readonly: changes.readonly ? 1 : 0 } : {}),
    ...(changes.quickreportLocationId !== undefined ? { quickreport_location_id: changes.quickreportLocationId } : {}),
    ...(changes.locationIds !== undefined ? { location_scope: scopeText(changes.locationIds) } : {}),
  };
  try {
    await ctx.repos.subUsers.update(ctx.db, sub.id, { ...values, last_modified: nowDatetime() });
  } catch (err) {
    if (isUniqueViolation(err)) throw domainErrors.emailTaken();
    throw err;
  }
  if (passwordHash !== undefined) await ctx.repos.console.deleteSessionsOf(ctx.db, sub.account_id, sub.id);
}

/** Disables (no sign-in, no API call, no quick report; its console sessions end) or enables a sub-user. */
export async function setSubUserDisabled(ctx: Ctx, sub: SubUserRow, disabled: boolean): Promise<void> {
  const now = nowDatetime();
  if (disabled === (sub.disabled_at !== null)) return;
  await ctx.repos.subUsers.update(ctx.db, sub.id, { disabled_at: disabled ? now : null, last_modified: now });
  if (disabled) await ctx.repos.console.deleteSessionsOf(ctx.db, sub.account_id, sub.id);
}

/** Deletes a sub-user, its identifier and its console sessions. */
export async function deleteSubUser(ctx: Ctx, sub: SubUserRow): Promise<void> {
  await ctx.repos.subUsers.delete(ctx.db, sub.id);
}
