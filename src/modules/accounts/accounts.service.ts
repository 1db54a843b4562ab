/** Accounts (parent users) and resolving an identifier to the caller behind it. */
import type { DB } from "../../db/database.js";
import { nowDatetime } from "../../db/time.js";
import { httpErrors } from "../../errors.js";
import { accountRepository } from "./accounts.repository.js";
import { hashIdentifier, newIdentifier } from "./identifier.js";

export interface Caller {
  accountId: number;
  subUserId: number | null;
  readonly: boolean;
}

export class AccountExistsError extends Error {}

export async function createAccount(db: DB, email: string): Promise<{ accountId: number; identifier: string }> {
  const identifier = newIdentifier();
  const now = nowDatetime();
  return db.transaction().execute(async (trx) => {
    if (await accountRepository.findAccountByEmail(trx, email)) {
      throw new AccountExistsError(`An account with e-mail ${email} already exists.`);
    }
    const accountId = await accountRepository.insertAccount(trx, email, now);
    await accountRepository.insertIdentifier(trx, accountId, null, hashIdentifier(identifier), now);
    return { accountId, identifier };
  });
}

/**
 * Looks callers up by identifier hash. Hits are kept briefly in memory: every API call
 * authenticates, and identifiers are never edited in place (revocation waits at most the TTL).
 */
export class CallerResolver {
  private cache = new Map<string, { caller: Caller; until: number }>();

  constructor(
    private readonly db: DB,
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {}

  async resolve(identifier: string | undefined): Promise<Caller> {
    if (identifier === undefined || identifier.trim() === "") throw httpErrors.identifierRequired();
    if (identifier.length > 255) throw httpErrors.identifierInvalid();
    const key = identifier.trim();
    const now = Date.now();
    // Keyed by the identifier itself: hashing on every call cost more than the rest of a cached look-up.
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.caller;
    const row = await accountRepository.findCallerByHash(this.db, hashIdentifier(key));
    if (!row) throw httpErrors.identifierInvalid();
    const caller: Caller = { accountId: row.account_id, subUserId: row.sub_user_id, readonly: row.readonly === 1 };
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(key, { caller, until: now + this.ttlMs });
    return caller;
  }
}
