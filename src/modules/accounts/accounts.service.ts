/** Accounts (parent users) and who is behind an identifier. */
import { nowDatetime } from "../../db/time.js";
import { inTransaction, isUniqueViolation } from "../../db/transaction.js";
import type { Caller } from "../../http/caller.js";
import type { Ctx } from "../context.js";
import { hashIdentifier, newIdentifier } from "./identifier.js";

export class AccountExistsError extends Error {}

/** A new account and its identifier; in the caller's transaction when `ctx.db` is one (the demo's). */
export async function createAccount(ctx: Ctx, email: string): Promise<{ accountId: number; identifier: string }> {
  const identifier = newIdentifier();
  const now = nowDatetime();
  const accounts = ctx.repos.accounts;
  const exists = () => new AccountExistsError(`An account with e-mail ${email} already exists.`);
  try {
    return await inTransaction(ctx.db, async (trx) => {
      if (await accounts.findAccountByEmail(trx, email)) throw exists();
      const accountId = await accounts.insertAccount(trx, email, now);
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
  return { accountId: row.account_id, subUserId: row.sub_user_id, readonly: row.readonly === 1 };
}
