/** The audit log (audit_log) and each account's audit retention. Holds no state: made per app like every repository. */
import type { Insertable, Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { AuditLogTable } from "../../db/schema.js";

export type AuditRow = Selectable<AuditLogTable>;

export interface AuditFilter {
  accountId: number;
  actorType?: string;
  subUserId?: number;
  action?: string;
  /** "param:id", e.g. "location_id:3" */
  object?: string;
  from?: string;
  /** Exclusive */
  to?: string;
}

export function createAuditRepository() {
  const filtered = (db: DB, f: AuditFilter) => {
    let q = db.selectFrom("audit_log").where("account_id", "=", f.accountId);
    if (f.actorType !== undefined) q = q.where("actor_type", "=", f.actorType);
    if (f.subUserId !== undefined) q = q.where("sub_user_id", "=", f.subUserId);
    if (f.action !== undefined) q = q.where("action", "=", f.action);
    if (f.object !== undefined) q = q.where("object_keys", "like", `%,${f.object},%`);
    if (f.from !== undefined) q = q.where("at", ">=", f.from);
    if (f.to !== undefined) q = q.where("at", "<", f.to);
    return q;
  };
  return {
    async insert(db: DB, row: Insertable<AuditLogTable>): Promise<void> {
      await db.insertInto("audit_log").values(row).execute();
    },

    /** Newest first. */
    async list(db: DB, f: AuditFilter, offset: number, limit: number): Promise<AuditRow[]> {
      return filtered(db, f).selectAll().orderBy("id", "desc").offset(offset).limit(limit).execute();
    },

    async count(db: DB, f: AuditFilter): Promise<number> {
      const r = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async actorOf(db: DB, accountId: number, subUserId: number | null): Promise<string> {
      if (subUserId === null) {
        const a = await db.selectFrom("accounts").select("email").where("id", "=", accountId).executeTakeFirst();
        return a?.email ?? "";
      }
      const s = await db.selectFrom("sub_users").select("email").where("id", "=", subUserId).executeTakeFirst();
      return s?.email ?? "";
    },

    async setRetention(db: DB, accountId: number, days: number): Promise<void> {
      await db.updateTable("accounts").set({ audit_retention_days: days }).where("id", "=", accountId).execute();
    },

    async retentionOf(db: DB, accountId: number): Promise<number> {
      const r = await db.selectFrom("accounts").select("audit_retention_days").where("id", "=", accountId).executeTakeFirst();
      return Number(r?.audit_retention_days ?? 0);
    },

    /** The retention periods in use (0 excluded). */
    async retentionPeriods(db: DB): Promise<number[]> {
      const rows = await db.selectFrom("accounts").select("audit_retention_days").distinct().where("audit_retention_days", ">", 0).execute();
      return rows.map((r) => Number(r.audit_retention_days));
    },

    /** Deletes the entries before `before` of the accounts whose retention is `days`; returns how many. */
    async purge(db: DB, days: number, before: string): Promise<number> {
      const r = await db
        .deleteFrom("audit_log")
        .where("at", "<", before)
        .where("account_id", "in", (eb) => eb.selectFrom("accounts").select("id").where("audit_retention_days", "=", days))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
