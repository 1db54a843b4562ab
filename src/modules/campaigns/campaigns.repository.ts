import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "../../db/database.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import { ReadCache } from "../../db/read-cache.js";
import type { CampaignsTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type CampaignRow = Selectable<CampaignsTable>;

export function createCampaignRepository() {
  // Read on every portal page view and login: prepared once per database.
  const byId = new PreparedQuery(["id"], (db, p) => db.selectFrom("campaigns").selectAll().where("id", "=", p.id));
  // ... and from memory while the catalogue does not change (rows are shared: never changed in place).
  const rowCache = new ReadCache<number, CampaignRow>(10_000, true);
  const byFilename = new PreparedQuery(["filename"], (db, p) =>
    db.selectFrom("campaigns").selectAll().where("filename", "=", p.filename).where("deleted", "=", 0),
  );

  return {
    async insert(db: DB, values: Insertable<CampaignsTable>): Promise<number> {
      const row = await db.insertInto("campaigns").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async update(db: DB, id: number, values: Updateable<CampaignsTable>): Promise<void> {
      await db.updateTable("campaigns").set(values).where("id", "=", id).execute();
    },

    /**
     * Campaigns among `ids` the account may read: its own and the built-in templates; deleted ones
     * too unless `liveOnly`. Locked as asked inside a transaction.
     */
    async findReadable(db: DB, accountId: number, ids: number[], opts: { liveOnly?: boolean; lock?: RowLock } = {}): Promise<CampaignRow[]> {
      if (ids.length === 0) return [];
      let query = db
        .selectFrom("campaigns")
        .selectAll()
        .where("id", "in", ids)
        .where((eb) => eb.or([eb("account_id", "=", accountId), eb("account_id", "is", null)]))
        .orderBy("id");
      if (opts.liveOnly) query = query.where("deleted", "=", 0);
      return withRowLock(db, query, opts.lock).execute();
    },

    /** The account's own, non-deleted campaigns among `ids` (templates excluded: nobody writes them). */
    async findOwnedLive(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<CampaignRow[]> {
      if (ids.length === 0) return [];
      const query = db
        .selectFrom("campaigns")
        .selectAll()
        .where("id", "in", ids)
        .where("account_id", "=", accountId)
        .where("deleted", "=", 0)
        .orderBy("id");
      return withRowLock(db, query, lock).execute();
    },

    /** Own non-deleted campaigns and templates, ordered by id. */
    async listUsable(db: DB, accountId: number): Promise<CampaignRow[]> {
      return db
        .selectFrom("campaigns")
        .selectAll()
        .where("deleted", "=", 0)
        .where((eb) => eb.or([eb("account_id", "=", accountId), eb("account_id", "is", null)]))
        .orderBy("id")
        .execute();
    },

    /** Keeps the row (get-campaign still shows it, deleted: 1); lists and writes stop seeing it. */
    async softDelete(db: DB, id: number, now: string): Promise<void> {
      await db.updateTable("campaigns").set({ deleted: 1, last_modified: now }).where("id", "=", id).execute();
    },

    /** Any campaign by id, deleted ones included. */
    async findById(db: DB, id: number): Promise<CampaignRow | undefined> {
      return rowCache.get(db, id) ?? rowCache.load(db, id, () => byId.first<CampaignRow>(db, { id }));
    },

    async findLiveByFilename(db: DB, filename: string): Promise<CampaignRow | undefined> {
      return byFilename.first<CampaignRow>(db, { filename });
    },

    async firstTemplate(db: DB): Promise<CampaignRow> {
      return db.selectFrom("campaigns").selectAll().where("account_id", "is", null).orderBy("id").limit(1).executeTakeFirstOrThrow();
    },
  };
}

export type CampaignRepository = ReturnType<typeof createCampaignRepository>;
