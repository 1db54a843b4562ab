/** SQL of guest automations (automations, automation_runs). */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/database.js";
import type { AutomationsTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type AutomationRow = Selectable<AutomationsTable>;
export type AutomationFields = Omit<Insertable<AutomationsTable>, "id" | "account_id" | "deleted" | "date_created" | "last_modified">;

export function createAutomationRepository() {
  return {
    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<AutomationRow[]> {
      if (ids.length === 0) return [];
      const q = db.selectFrom("automations").selectAll().where("account_id", "=", accountId).where("deleted", "=", 0).where("id", "in", ids).orderBy("id");
      return withRowLock(db, q, lock).execute();
    },

    /** The account's automations, deleted ones too (their messages stay in the log). */
    async findOwnedAny(db: DB, accountId: number, ids: number[]): Promise<AutomationRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom("automations").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id").execute();
    },

    /** The automation whatever its state (a message names it; it may have been deleted since). */
    async findById(db: DB, id: number): Promise<AutomationRow | undefined> {
      return db.selectFrom("automations").selectAll().where("id", "=", id).executeTakeFirst();
    },

    async listByAccount(db: DB, accountId: number): Promise<AutomationRow[]> {
      return db.selectFrom("automations").selectAll().where("account_id", "=", accountId).where("deleted", "=", 0).orderBy("id").execute();
    },

    /** Active automations of the schedule's triggers (absence, birthday), every account's. */
    async activeScheduled(db: DB): Promise<AutomationRow[]> {
      return db
        .selectFrom("automations")
        .selectAll()
        .where("deleted", "=", 0)
        .where("active", "=", 1)
        .where("trigger", "in", ["absence", "birthday"])
        .orderBy("id")
        .execute();
    },

    async insert(db: DB, row: Insertable<AutomationsTable>): Promise<number> {
      const r = await db.insertInto("automations").values(row).returning("id").executeTakeFirstOrThrow();
      return r.id;
    },

    async update(db: DB, id: number, changes: Updateable<AutomationsTable>): Promise<void> {
      await db.updateTable("automations").set(changes).where("id", "=", id).execute();
    },

    /**
     * Whether the guest is back at the location since a session ended at `stoppedAt` (a session
     * started there since, or one still open that was heard from since): the visit did not end, so visit-ended waits for the next end.
     */
    async visitContinues(db: DB, guestId: number, locationId: number, stoppedAt: string): Promise<boolean> {
      const r = await db
        .selectFrom("radius_sessions")
        .select("id")
        .where("guest_id", "=", guestId)
        .where("location_id", "=", locationId)
        .where((eb) => eb.or([eb("started_at", ">", stoppedAt), eb.and([eb("stopped_at", "is", null), eb("updated_at", ">=", stoppedAt)])]))
        .limit(1)
        .executeTakeFirst();
      return r !== undefined;
    },

    /** Claims an absence or birthday run of an automation at a location for a local day: true for the one caller that gets it. */
    async claimRun(db: DB, automationId: number, locationId: number, day: string): Promise<boolean> {
      const r = await db
        .insertInto("automation_runs")
        .values({ automation_id: automationId, location_id: locationId, day })
        .onConflict((oc) => oc.columns(["automation_id", "location_id", "day"]).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

export type AutomationRepository = ReturnType<typeof createAutomationRepository>;
