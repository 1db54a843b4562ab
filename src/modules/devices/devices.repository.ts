import type { Insertable, Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import type { DevicesTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type DeviceRow = Selectable<DevicesTable>;

export function createDeviceRepository() {
  // Looked up on every portal page view and RADIUS cache miss: prepared once per database.
  const byMac = new PreparedQuery(["mac"], (db, p) => db.selectFrom("devices").selectAll().where("mac_address", "=", p.mac));
  const heard = new PreparedQuery(["id", "now"], (db, p) => db.updateTable("devices").set({ last_heard_at: p.now }).where("id", "=", p.id));

  return {
    async insert(db: DB, values: Insertable<DevicesTable>): Promise<number> {
      const row = await db.insertInto("devices").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<DeviceRow[]> {
      if (ids.length === 0) return [];
      const query = db.selectFrom("devices").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
      return withRowLock(db, query, lock).execute();
    },

    async findById(db: DB, id: number): Promise<DeviceRow | undefined> {
      return db.selectFrom("devices").selectAll().where("id", "=", id).executeTakeFirst();
    },

    async listByAccount(db: DB, accountId: number): Promise<DeviceRow[]> {
      return db.selectFrom("devices").selectAll().where("account_id", "=", accountId).orderBy("id").execute();
    },

    async listByLocation(db: DB, locationId: number): Promise<DeviceRow[]> {
      return db.selectFrom("devices").selectAll().where("location_id", "=", locationId).orderBy("id").execute();
    },

    /** `mac` in canonical form (see src/mac-address.ts). */
    async findByMac(db: DB, mac: string): Promise<DeviceRow | undefined> {
      return byMac.first<DeviceRow>(db, { mac });
    },

    async assignLocation(db: DB, deviceId: number, locationId: number | null, now: string): Promise<void> {
      await db.updateTable("devices").set({ location_id: locationId, update_date: now }).where("id", "=", deviceId).execute();
    },

    /** Marks the device heard from (live_status online for the next 10 minutes). */
    async setRadiusSecret(db: DB, deviceId: number, secret: string, now: string): Promise<void> {
      await db.updateTable("devices").set({ radius_secret: secret, update_date: now }).where("id", "=", deviceId).execute();
    },

    /** The gateway fetched its configuration: what it got (sync_response) and when (last_upgraded). */
    async recordConfigFetch(db: DB, deviceId: number, syncResponse: string, now: string): Promise<void> {
      await db.updateTable("devices").set({ sync_response: syncResponse.slice(0, 255), last_upgraded: now }).where("id", "=", deviceId).execute();
    },

    async markHeard(db: DB, deviceId: number, now: string): Promise<void> {
      await heard.run(db, { id: deviceId, now });
    },

    /** markHeard of several access points in one statement (`last_heard_at` alone, as markHeard). */
    async markHeardMany(db: DB, deviceIds: number[], now: string): Promise<void> {
      if (deviceIds.length === 1) return this.markHeard(db, deviceIds[0], now);
      await db.updateTable("devices").set({ last_heard_at: now }).where("id", "in", deviceIds).execute();
    },
  };
}

export type DeviceRepository = ReturnType<typeof createDeviceRepository>;
