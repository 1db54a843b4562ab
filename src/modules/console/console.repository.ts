/** Console sign-in sessions (console_sessions). Holds no state: made per app like every repository. */
import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { ConsoleSessionsTable } from "../../db/schema.js";

export type ConsoleSessionRow = Selectable<ConsoleSessionsTable>;

/** A session with what the console needs to know of who is behind it, read fresh on every request. */
export interface ConsoleSessionView extends ConsoleSessionRow {
  account_email: string;
  /** The sub-user's row still exists (null for the owner). */
  sub_user_email: string | null;
  sub_user_readonly: number | null;
  sub_user_name: string | null;
  sub_user_disabled_at: string | null;
  sub_user_location_scope: string | null;
}

export function createConsoleRepository() {
  return {
    async insertSession(db: DB, row: ConsoleSessionRow): Promise<void> {
      await db.insertInto("console_sessions").values(row).execute();
    },

    async findSession(db: DB, id: string): Promise<ConsoleSessionView | undefined> {
      return db
        .selectFrom("console_sessions as c")
        .innerJoin("accounts as a", "a.id", "c.account_id")
        .leftJoin("sub_users as s", "s.id", "c.sub_user_id")
        .selectAll("c")
        .select([
          "a.email as account_email",
          "s.email as sub_user_email",
          "s.readonly as sub_user_readonly",
          "s.disabled_at as sub_user_disabled_at",
          "s.location_scope as sub_user_location_scope",
          (eb) => eb.fn.coalesce("s.first_name", eb.val("")).as("sub_user_name"),
        ])
        .where("c.id", "=", id)
        .executeTakeFirst() as Promise<ConsoleSessionView | undefined>;
    },

    async touchSession(db: DB, id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
      await db.updateTable("console_sessions").set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where("id", "=", id).execute();
    },

    async deleteSession(db: DB, id: string): Promise<void> {
      await db.deleteFrom("console_sessions").where("id", "=", id).execute();
    },

    /** Ends every session of an owner (sub_user_id null) or of one sub-user. */
    async deleteSessionsOf(db: DB, accountId: number, subUserId: number | null): Promise<void> {
      let q = db.deleteFrom("console_sessions").where("account_id", "=", accountId);
      q = subUserId === null ? q.where("sub_user_id", "is", null) : q.where("sub_user_id", "=", subUserId);
      await q.execute();
    },

    async deleteExpired(db: DB, now: string): Promise<number> {
      const r = await db.deleteFrom("console_sessions").where("expires_at", "<=", now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type ConsoleRepository = ReturnType<typeof createConsoleRepository>;
