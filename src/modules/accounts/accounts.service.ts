/** Accounts (parent users) and who is behind an identifier. */
import { nowDatetime } from "../../db/time.js";
import { inTransaction, isUniqueViolation } from "../../db/transaction.js";
import type { Caller } from "../../http/caller.js";
import type { Ctx } from "../context.js";
import { scopeOf } from "./scope.js";
import { hashIdentifier, newIdentifier } from "./identifier.js";
import { mailbox } from "./mailbox.js";
import { hashPassword, passwordMatches, passwordProblem } from "./password.js";

export class AccountExistsError extends Error {}
export class UnknownAccountError extends Error {}
/** A password the owner may not have: the message says why. */
export class OwnerPasswordError extends Error {}

/** Why `password` cannot be an owner's password (the rule of every password: password.ts), or undefined. */
export const ownerPasswordProblem = passwordProblem;

async function hashOwnerPassword(password: string): Promise<string> {
  const problem = ownerPasswordProblem(password);
  if (problem) throw new OwnerPasswordError(problem);
  return hashPassword(password);
}

/**
 * A new account and its identifier, with the owner's password when given (hashed before the
 * transaction: the hash is slow on purpose); in the caller's transaction when `ctx.db` is one (the demo's).
 */
export async function createAccount(ctx: Ctx, given: string, password?: string): Promise<{ accountId: number; identifier: string }> {
  const email = mailbox(given);
  const passwordHash = password === undefined ? null : await hashOwnerPassword(password);
  const identifier = newIdentifier();
  const now = nowDatetime();
  const accounts = ctx.repos.accounts;
  const exists = () => new AccountExistsError(`An account with e-mail ${email} already exists.`);
  try {
    return await inTransaction(ctx.db, async (trx) => {
      if (await accounts.findAccountByEmail(trx, email)) throw exists();
      const accountId = await accounts.insertAccount(trx, email, now, passwordHash);
      await accounts.insertIdentifier(trx, accountId, null, hashIdentifier(identifier), now);
      return { accountId, identifier };
    });
  } catch (err) {
    // Two creates of one e-mail at once: the unique index lets one through.
    if (isUniqueViolation(err)) throw exists();
    throw err;
  }
}

/** The caller behind an identifier, or undefined when it is unknown, revoked, or its sub-user is gone. */
export async function findCaller(ctx: Ctx, identifier: string): Promise<Caller | undefined> {
  const row = await ctx.repos.accounts.findCallerByHash(ctx.db, hashIdentifier(identifier));
  if (!row) return undefined;
  return { accountId: row.account_id, subUserId: row.sub_user_id, readonly: row.readonly === 1, locationScope: scopeOf(row.location_scope) };
}

/**
 * Sets or resets the owner's password of the account with this e-mail (as given at creation), and
 * ends the owner's console sessions.
 */
export async function setOwnerPassword(ctx: Ctx, email: string, password: string): Promise<void> {
  const passwordHash = await hashOwnerPassword(password);
  if (!(await ctx.repos.accounts.setPasswordHash(ctx.db, mailbox(email), passwordHash))) {
    throw new UnknownAccountError(`No account has the e-mail ${email}.`);
  }
  await ctx.repos.accounts.deleteOwnerSessions(ctx.db, mailbox(email));
}

/**
 * The account whose owner has this e-mail and password, or undefined. An unknown e-mail, an
 * account without a password and a wrong password give the same answer in the same time (a key is
 * derived in every case; the comparison is constant-time).
 */
export async function verifyOwnerPassword(ctx: Ctx, email: string, password: string): Promise<{ accountId: number } | undefined> {
  const row = await ctx.repos.accounts.findOwnerPassword(ctx.db, mailbox(email));
  return (await passwordMatches(password, row?.password_hash)) && row ? { accountId: row.id } : undefined;
}

/**
 * A new identifier for the account's owner; every earlier one is revoked in the same transaction.
 * Identifiers are stored only as hashes, so a lost one cannot be shown again: this is how it is
 * recovered. Callers that cache identifiers (http/caller.ts) must forget theirs.
 */
export async function rotateOwnerIdentifier(ctx: Ctx, accountId: number): Promise<string> {
  const identifier = newIdentifier();
  const now = nowDatetime();
  await inTransaction(ctx.db, async (trx) => {
    await ctx.repos.accounts.revokeOwnerIdentifiers(trx, accountId, now);
    await ctx.repos.accounts.insertIdentifier(trx, accountId, null, hashIdentifier(identifier), now);
  });
  return identifier;
}
