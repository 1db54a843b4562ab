import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/database.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import { ReadCache } from "../../db/read-cache.js";
import type { LocationOptionsTable, LocationsTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type LocationRow = Selectable<LocationsTable>;
export type LocationOptionsRow = Selectable<LocationOptionsTable>;

export function createLocationRepository() {
  // get-location is the hottest read of the API; while nothing is written its rows come from memory.
  const rowCache = new ReadCache<number, LocationRow>(10_000, true);
  // Every portal page view, RFC 8908 poll and openNDS hand-off finds its location by slug first.
  const slugCache = new ReadCache<string, LocationRow>(10_000, true);
  // Every portal page view starts here: prepared once per database.
  const byId = new PreparedQuery(["id"], (db, p) => db.selectFrom("locations").selectAll().where("id", "=", p.id));
  const bySlug = new PreparedQuery(["slug"], (db, p) =>
    db.selectFrom("locations").selectAll().where("portal_slug", "=", p.slug).where("deleted", "=", 0),
  );

  return {
    async insert(db: DB, values: Insertable<LocationsTable>): Promise<number> {
      const row = await db.insertInto("locations").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async update(db: DB, id: number, values: Updateable<LocationsTable>): Promise<void> {
      await db.updateTable("locations").set(values).where("id", "=", id).execute();
    },

    /** The account's locations among `ids`, deleted ones included. Rows are shared: do not mutate them. */
    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<LocationRow[]> {
      if (ids.length === 0) return [];
      if (lock) {
        const query = db.selectFrom("locations").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
        return withRowLock(db, query, lock).execute();
      }
      const rows =
        rowCache.getAll(db, ids) ??
        (await rowCache.loadAll(
          db,
          () => db.selectFrom("locations").selectAll().where("id", "in", ids).execute(),
          (r) => r.id,
        ));
      return rows.filter((r) => r.account_id === accountId);
    },

    /** The account's live (not deleted) locations among `ids`, locked as asked inside a transaction. */
    async findOwnedLive(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<LocationRow[]> {
      if (ids.length === 0) return [];
      const query = db
        .selectFrom("locations")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("deleted", "=", 0)
        .where("id", "in", ids)
        .orderBy("id");
      return withRowLock(db, query, lock).execute();
    },

    async listLive(db: DB, accountId: number): Promise<LocationRow[]> {
      return db.selectFrom("locations").selectAll().where("account_id", "=", accountId).where("deleted", "=", 0).orderBy("id").execute();
    },

    /** A live location by its portal slug: from memory while the catalogue does not change (a deletion is a change). */
    async findLiveBySlug(db: DB, slug: string): Promise<LocationRow | undefined> {
      return slugCache.get(db, slug) ?? slugCache.load(db, slug, () => bySlug.first<LocationRow>(db, { slug }));
    },

    /** A location by id, deleted or not: from memory while the catalogue does not change (every login reads it). */
    async findById(db: DB, id: number): Promise<LocationRow | undefined> {
      return rowCache.get(db, id) ?? rowCache.load(db, id, () => byId.first<LocationRow>(db, { id }));
    },

    /** Marks the location deleted and unassigns its devices. */
    async softDelete(db: DB, id: number, now: string): Promise<void> {
      await db.updateTable("locations").set({ deleted: 1, last_modified: now }).where("id", "=", id).execute();
      await db.updateTable("devices").set({ location_id: null, update_date: now }).where("location_id", "=", id).execute();
    },

    async setDefaultCampaign(db: DB, locationId: number, campaignId: number | null, now: string): Promise<void> {
      await db.updateTable("locations").set({ default_campaign_id: campaignId, last_modified: now }).where("id", "=", locationId).execute();
    },

    /** Clears a campaign as default wherever the account had set it. */
    async clearDefaultCampaign(db: DB, accountId: number, campaignId: number, now: string): Promise<void> {
      await db
        .updateTable("locations")
        .set({ default_campaign_id: null, last_modified: now })
        .where("account_id", "=", accountId)
        .where("default_campaign_id", "=", campaignId)
        .execute();
    },

    async findOptions(db: DB, locationId: number): Promise<LocationOptionsRow | undefined> {
      return db.selectFrom("location_options").selectAll().where("location_id", "=", locationId).executeTakeFirst();
    },

    async upsertOptions(db: DB, values: LocationOptionsRow): Promise<void> {
      const { location_id, ...rest } = values;
      await db
        .insertInto("location_options")
        .values(values)
        .onConflict((oc) => oc.column("location_id").doUpdateSet(rest))
        .execute();
    },
  };
}

export type LocationRepository = ReturnType<typeof createLocationRepository>;
