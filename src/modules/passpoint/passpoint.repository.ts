/** SQL of Passpoint: configurations, the locations they cover, and the guests' credentials. */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/database.js";
import type { PasspointConfigsTable, PasspointCredentialsTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type PasspointConfigRow = Selectable<PasspointConfigsTable>;
export type PasspointCredentialRow = Selectable<PasspointCredentialsTable>;

export function createPasspointRepository() {
  return {
    async insertConfig(db: DB, values: Insertable<PasspointConfigsTable>): Promise<number> {
      const row = await db.insertInto("passpoint_configs").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async updateConfig(db: DB, id: number, values: Updateable<PasspointConfigsTable>): Promise<void> {
      await db.updateTable("passpoint_configs").set(values).where("id", "=", id).execute();
    },

    async findOwnedConfigs(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<PasspointConfigRow[]> {
      if (ids.length === 0) return [];
      const query = db.selectFrom("passpoint_configs").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
      return withRowLock(db, query, lock).execute();
    },

    async listConfigs(db: DB, accountId: number): Promise<PasspointConfigRow[]> {
      return db.selectFrom("passpoint_configs").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    },

    async deleteConfig(db: DB, id: number): Promise<void> {
      await db.deleteFrom("passpoint_config_locations").where("config_id", "=", id).execute();
      await db.deleteFrom("passpoint_configs").where("id", "=", id).execute();
    },

    /** The locations of the account's configurations, in order of location. */
    async coverageOfAccount(db: DB, accountId: number): Promise<{ config_id: number; location_id: number }[]> {
      return db
        .selectFrom("passpoint_config_locations as pl")
        .innerJoin("passpoint_configs as c", "c.id", "pl.config_id")
        .select(["pl.config_id", "pl.location_id"])
        .where("c.account_id", "=", accountId)
        .orderBy("pl.location_id")
        .execute();
    },

    /** Makes the configuration cover exactly these locations (taking them from any other configuration). */
    async setCoverage(db: DB, configId: number, locationIds: number[]): Promise<void> {
      await db.deleteFrom("passpoint_config_locations").where("config_id", "=", configId).execute();
      if (locationIds.length === 0) return;
      await db.deleteFrom("passpoint_config_locations").where("location_id", "in", locationIds).execute();
      await db
        .insertInto("passpoint_config_locations")
        .values(locationIds.map((location_id) => ({ location_id, config_id: configId })))
        .execute();
    },

    /** The configuration covering a location, if any. */
    async configOfLocation(db: DB, locationId: number): Promise<PasspointConfigRow | undefined> {
      return db
        .selectFrom("passpoint_config_locations as pl")
        .innerJoin("passpoint_configs as c", "c.id", "pl.config_id")
        .selectAll("c")
        .where("pl.location_id", "=", locationId)
        .executeTakeFirst();
    },

    async insertCredential(db: DB, values: Insertable<PasspointCredentialsTable>): Promise<number> {
      const row = await db.insertInto("passpoint_credentials").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async findCredentialByUsername(db: DB, username: string): Promise<PasspointCredentialRow | undefined> {
      return db.selectFrom("passpoint_credentials").selectAll().where("username", "=", username).executeTakeFirst();
    },

    async findCredentialBySerial(db: DB, serial: string): Promise<PasspointCredentialRow | undefined> {
      return db.selectFrom("passpoint_credentials").selectAll().where("serial", "=", serial).where("kind", "=", "tls").executeTakeFirst();
    },

    async findOwnedCredentials(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<PasspointCredentialRow[]> {
      if (ids.length === 0) return [];
      const query = db.selectFrom("passpoint_credentials").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
      return withRowLock(db, query, lock).execute();
    },

    async credentialsOfGuest(db: DB, guestId: number): Promise<PasspointCredentialRow[]> {
      return db.selectFrom("passpoint_credentials").selectAll().where("guest_id", "=", guestId).orderBy("id").execute();
    },

    /** The guest's Chargeable-User-Identity, when a credential was issued to it before. */
    async cuiOfGuest(db: DB, guestId: number): Promise<string | undefined> {
      const row = await db.selectFrom("passpoint_credentials").select("cui").where("guest_id", "=", guestId).orderBy("id").limit(1).executeTakeFirst();
      return row?.cui;
    },

    /** Revokes the credentials not yet revoked among `ids` (or all of the guest's); answers how many. */
    async revoke(db: DB, target: { ids: number[] } | { guestId: number }, now: string, by: string): Promise<number> {
      let query = db.updateTable("passpoint_credentials").set({ revoked_at: now, revoked_by: by }).where("revoked_at", "is", null);
      if ("ids" in target) {
        if (target.ids.length === 0) return 0;
        query = query.where("id", "in", target.ids);
      } else query = query.where("guest_id", "=", target.guestId);
      const res = await query.executeTakeFirst();
      return Number(res.numUpdatedRows);
    },

    /** An erased guest's credentials: gone, so that nothing authenticates as it or links its devices any more. */
    async deleteGuestCredentials(db: DB, guestId: number): Promise<void> {
      await db.deleteFrom("passpoint_credentials").where("guest_id", "=", guestId).execute();
    },

    async markUsed(db: DB, id: number, now: string): Promise<void> {
      await db.updateTable("passpoint_credentials").set({ last_used_at: now }).where("id", "=", id).execute();
    },
  };
}

export type PasspointRepository = ReturnType<typeof createPasspointRepository>;
