import type { DB } from "../../db/database.js";

export interface CallerRow {
  account_id: number;
  sub_user_id: number | null;
  readonly: number | null;
}

export const accountRepository = {
  async insertAccount(db: DB, email: string, now: string): Promise<number> {
    const row = await db.insertInto("accounts").values({ email, created_at: now }).returning("id").executeTakeFirstOrThrow();
    return row.id;
  },

  async findAccountByEmail(db: DB, email: string): Promise<{ id: number } | undefined> {
    return db.selectFrom("accounts").select("id").where("email", "=", email).executeTakeFirst();
  },

  async countAccounts(db: DB): Promise<number> {
    const row = await db.selectFrom("accounts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertIdentifier(db: DB, accountId: number, subUserId: number | null, tokenHash: string, now: string): Promise<void> {
    await db
      .insertInto("api_identifiers")
      .values({ account_id: accountId, sub_user_id: subUserId, token_hash: tokenHash, created_at: now })
      .execute();
  },

  /** The caller behind an identifier hash, or undefined when unknown or revoked. */
  async findCallerByHash(db: DB, tokenHash: string): Promise<CallerRow | undefined> {
    return db
      .selectFrom("api_identifiers as i")
      .leftJoin("sub_users as s", "s.id", "i.sub_user_id")
      .select(["i.account_id", "i.sub_user_id", "s.readonly"])
      .where("i.token_hash", "=", tokenHash)
      .where("i.revoked_at", "is", null)
      .executeTakeFirst();
  },
};
