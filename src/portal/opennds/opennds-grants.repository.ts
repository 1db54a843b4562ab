/** SQL of the openNDS level-3 grants waiting for a router's authmon (table opennds_grants). */
import type { Insertable } from "kysely";
import type { DB } from "../../db/database.js";
import type { OpenNdsGrantsTable } from "../../db/schema.js";

export async function insertGrant(db: DB, row: Insertable<OpenNdsGrantsTable>): Promise<void> {
  await db.insertInto("opennds_grants").values(row).execute();
}

/** The fresh entries for one router (by location and gateway hash), oldest first. */
export async function pendingGrants(db: DB, locationId: number, gatewayHash: string, now: string, limit: number): Promise<{ id: number; rhid: string; entry: string }[]> {
  return db
    .selectFrom("opennds_grants")
    .select(["id", "rhid", "entry"])
    .where("location_id", "=", locationId)
    .where("gateway_hash", "=", gatewayHash)
    .where("expires_at", ">", now)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** Deletes the router's entries with these tokens (all of them when `rhids` is undefined) and the expired ones. */
export async function deleteGrants(db: DB, locationId: number, gatewayHash: string, rhids: string[] | undefined, now: string): Promise<void> {
  await db.deleteFrom("opennds_grants").where("expires_at", "<=", now).execute();
  if (rhids !== undefined && rhids.length === 0) return;
  let q = db.deleteFrom("opennds_grants").where("location_id", "=", locationId).where("gateway_hash", "=", gatewayHash);
  if (rhids !== undefined) q = q.where("rhid", "in", rhids);
  await q.execute();
}
