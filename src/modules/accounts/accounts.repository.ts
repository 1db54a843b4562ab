import type { DB } from "../../db/database.js";
import { withRowLock } from "../../db/transaction.js";

export interface CallerRow {
  account_id: number;
  sub_user_id: number | null;
  readonly: number | null;
  location_scope: string | null;
}

/** Accounts and their API identifiers. Holds no state: made per app like every repository. */
export function createAccountRepository() {
  return {
    async insertAccount(db: DB, email: string, now: string, passwordHash: string | null = null): Promise<number> {
      const row = await db
        .insertInto("accounts")
        .values({ email, created_at: now, password_hash: passwordHash })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async findAccountByEmail(db: DB, email: string): Promise<{ id: number } | undefined> {
      return db.selectFrom("accounts").select("id").where("email", "=", email).executeTakeFirst();
    },

    async findOwnerPassword(db: DB, email: string): Promise<{ id: number; password_hash: string | null } | undefined> {
      return db.selectFrom("accounts").select(["id", "password_hash"]).where("email", "=", email).executeTakeFirst();
    },

    /** Sets the owner's password hash; false when no account has this e-mail. */
    async setPasswordHash(db: DB, email: string, passwordHash: string): Promise<boolean> {
      const result = await db.updateTable("accounts").set({ password_hash: passwordHash }).where("email", "=", email).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Ends the owner's console sessions (a new password: whoever knew the old one is signed out). */
    async deleteOwnerSessions(db: DB, email: string): Promise<void> {
      await db
        .deleteFrom("console_sessions")
        .where("sub_user_id", "is", null)
        .where("account_id", "in", db.selectFrom("accounts").select("id").where("email", "=", email))
        .execute();
    },

    /** Holds the account's row until the transaction ends: writers on the account's behalf take turns. */
    async holdForWrite(db: DB, accountId: number): Promise<void> {
      await withRowLock(db, db.selectFrom("accounts").select("id").where("id", "=", accountId), "hold").execute();
    },

    /** Owners who asked for the quick report (the schedule's recipients besides sub-users). */
    async ownersWithQuickReport(db: DB): Promise<{ id: number; email: string; quickreport_frequency: string; quickreport_location_id: number }[]> {
      return db
        .selectFrom("accounts")
        .select(["id", "email", "quickreport_frequency", "quickreport_location_id"])
        .where("quickreport", "=", 1)
        .orderBy("id")
        .execute();
    },

    async ownerQuickReportOn(db: DB, accountId: number): Promise<boolean> {
      const r = await db.selectFrom("accounts").select("quickreport").where("id", "=", accountId).executeTakeFirst();
      return r?.quickreport === 1;
    },

    async ownerQuickReport(db: DB, accountId: number): Promise<{ quickreport: number; quickreport_frequency: string; quickreport_location_id: number } | undefined> {
      return db.selectFrom("accounts").select(["quickreport", "quickreport_frequency", "quickreport_location_id"]).where("id", "=", accountId).executeTakeFirst();
    },

    /** The owner's quick report on or off, daily or weekly, of one location (0: every one); what is not given is kept. */
    async setOwnerQuickReport(db: DB, accountId: number, on: boolean, frequency: string | undefined, locationId: number | undefined): Promise<void> {
      await db
        .updateTable("accounts")
        .set({
          quickreport: on ? 1 : 0,
          ...(frequency ? { quickreport_frequency: frequency } : {}),
          ...(locationId !== undefined ? { quickreport_location_id: locationId } : {}),
        })
        .where("id", "=", accountId)
        .execute();
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

    /** Revokes every identifier of the account's owner (sub-users keep theirs). */
    async revokeOwnerIdentifiers(db: DB, accountId: number, now: string): Promise<void> {
      await db
        .updateTable("api_identifiers")
        .set({ revoked_at: now })
        .where("account_id", "=", accountId)
        .where("sub_user_id", "is", null)
        .where("revoked_at", "is", null)
        .execute();
    },

    async findAccountEmail(db: DB, accountId: number): Promise<string | undefined> {
      const row = await db.selectFrom("accounts").select("email").where("id", "=", accountId).executeTakeFirst();
      return row?.email;
    },

    /**
     * The caller behind an identifier hash, or undefined when unknown or revoked. A sub-user's
     * identifier whose sub-user row is gone is unknown too: without the row nothing says what it
     * may do (read-only or not), so it may do nothing.
     */
    async findCallerByHash(db: DB, tokenHash: string): Promise<CallerRow | undefined> {
      return db
        .selectFrom("api_identifiers as i")
        .leftJoin("sub_users as s", "s.id", "i.sub_user_id")
        .select(["i.account_id", "i.sub_user_id", "s.readonly", "s.location_scope"])
        .where("i.token_hash", "=", tokenHash)
        .where("i.revoked_at", "is", null)
        .where((eb) => eb.or([eb("i.sub_user_id", "is", null), eb.and([eb("s.id", "is not", null), eb("s.disabled_at", "is", null)])]))
        .executeTakeFirst();
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
