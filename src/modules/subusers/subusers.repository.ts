import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/database.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";
import type { SubUsersTable } from "../../db/schema.js";

export type SubUserRow = Selectable<SubUsersTable>;

export function createSubUserRepository() {
  return {
    async insert(db: DB, values: Insertable<SubUsersTable>): Promise<number> {
      const row = await db.insertInto("sub_users").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    /** E-mails are stored lower case, so this finds a sub-user whatever case the address came in. */
    async findByEmail(db: DB, email: string): Promise<{ id: number } | undefined> {
      return db.selectFrom("sub_users").select("id").where("email", "=", email).executeTakeFirst();
    },

    async findCredentialsByEmail(
      db: DB,
      email: string,
    ): Promise<{ id: number; account_id: number; readonly: number; password_hash: string; disabled_at: string | null } | undefined> {
      return db
        .selectFrom("sub_users")
        .select(["id", "account_id", "readonly", "password_hash", "disabled_at"])
        .where("email", "=", email)
        .executeTakeFirst();
    },

    /** Sub-users with the quick report on, every account's (the schedule's recipients). */
    async listQuickReport(db: DB): Promise<SubUserRow[]> {
      return db.selectFrom("sub_users").selectAll().where("quickreport", "=", 1).where("disabled_at", "is", null).orderBy("id").execute();
    },

    async quickReportOn(db: DB, id: number): Promise<boolean> {
      const r = await db.selectFrom("sub_users").select("quickreport").where("id", "=", id).executeTakeFirst();
      return r?.quickreport === 1;
    },

    async findById(db: DB, id: number): Promise<SubUserRow | undefined> {
      return db.selectFrom("sub_users").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** The quick report on or off, daily or weekly (frequency kept when not given). */
    async setQuickReport(db: DB, id: number, on: boolean, frequency: string | undefined, now: string): Promise<void> {
      await db
        .updateTable("sub_users")
        .set({ quickreport: on ? 1 : 0, ...(frequency ? { quickreport_frequency: frequency } : {}), last_modified: now })
        .where("id", "=", id)
        .execute();
    },

    /** The account's sub-users among `ids`, locked for a writing route when asked (a reference's look-up). */
    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<SubUserRow[]> {
      if (ids.length === 0) return [];
      return withRowLock(db, db.selectFrom("sub_users").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id"), lock).execute();
    },

    async update(db: DB, id: number, values: Updateable<SubUsersTable>): Promise<void> {
      await db.updateTable("sub_users").set(values).where("id", "=", id).execute();
    },

    /** Deletes the sub-user with its identifiers and console sessions: nothing of it signs in again. */
    async delete(db: DB, id: number): Promise<void> {
      await db.deleteFrom("console_sessions").where("sub_user_id", "=", id).execute();
      await db.deleteFrom("api_identifiers").where("sub_user_id", "=", id).execute();
      await db.deleteFrom("sub_users").where("id", "=", id).execute();
    },

    async listByAccount(db: DB, accountId: number): Promise<SubUserRow[]> {
      return db.selectFrom("sub_users").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    },
  };
}

export type SubUserRepository = ReturnType<typeof createSubUserRepository>;
