import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/database.js";
import type { ControllersTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type ControllerRow = Selectable<ControllersTable>;

export function createControllerRepository() {
  return {
    async insert(db: DB, values: Insertable<ControllersTable>): Promise<number> {
      const row = await db.insertInto("controllers").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async update(db: DB, id: number, values: Updateable<ControllersTable>): Promise<void> {
      await db.updateTable("controllers").set(values).where("id", "=", id).execute();
    },

    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<ControllerRow[]> {
      if (ids.length === 0) return [];
      const query = db.selectFrom("controllers").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
      return withRowLock(db, query, lock).execute();
    },

    async listByAccount(db: DB, accountId: number): Promise<ControllerRow[]> {
      return db.selectFrom("controllers").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    },

    /** Each controller of the account with the locations it serves. */
    async assignmentsOfAccount(db: DB, accountId: number): Promise<{ controller_id: number; location_id: number }[]> {
      return db
        .selectFrom("location_controllers as lc")
        .innerJoin("controllers as c", "c.id", "lc.controller_id")
        .select(["lc.controller_id", "lc.location_id"])
        .where("c.account_id", "=", accountId)
        .orderBy("lc.location_id")
        .execute();
    },

    async remove(db: DB, id: number): Promise<void> {
      await db.deleteFrom("location_controllers").where("controller_id", "=", id).execute();
      await db.deleteFrom("controllers").where("id", "=", id).execute();
    },

    async assign(db: DB, locationId: number, controllerId: number | null): Promise<void> {
      await db.deleteFrom("location_controllers").where("location_id", "=", locationId).execute();
      if (controllerId !== null) await db.insertInto("location_controllers").values({ location_id: locationId, controller_id: controllerId }).execute();
    },

    /** The locations a controller serves. */
    async locationIdsOf(db: DB, controllerId: number): Promise<number[]> {
      const rows = await db.selectFrom("location_controllers").select("location_id").where("controller_id", "=", controllerId).orderBy("location_id").execute();
      return rows.map((r) => r.location_id);
    },

    async findById(db: DB, id: number): Promise<ControllerRow | undefined> {
      return db.selectFrom("controllers").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** What the service last heard from the controller; `pushed`: the allowances it now holds from this service. */
    async recordStatus(db: DB, id: number, status: { last_status: string; last_message: string; last_checked_at: string; pushed_allowances?: string }): Promise<void> {
      await db.updateTable("controllers").set(status).where("id", "=", id).execute();
    },

    /** The controller that lets the guests of a location in, if any. */
    async findForLocation(db: DB, locationId: number): Promise<ControllerRow | undefined> {
      return db
        .selectFrom("location_controllers as lc")
        .innerJoin("controllers as c", "c.id", "lc.controller_id")
        .selectAll("c")
        .where("lc.location_id", "=", locationId)
        .executeTakeFirst();
    },
  };
}

export type ControllerRepository = ReturnType<typeof createControllerRepository>;
