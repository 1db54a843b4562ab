/** SQL of vouchers: batches, their locations and codes, each code's devices and use. */
import { type Selectable, sql } from "kysely";
import type { DB } from "../../db/database.js";
import type { VoucherBatchesTable, VouchersTable } from "../../db/schema.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type VoucherBatchRow = Selectable<VoucherBatchesTable>;
export type VoucherRow = Selectable<VouchersTable>;

export interface VoucherListFilter {
  batchId?: number;
  locationId?: number;
  status?: string;
  code?: string;
  /** A scoped sub-user's locations: only codes of batches valid at none but these. */
  scope?: number[] | null;
}

export interface VoucherListRow extends VoucherRow {
  devices_used: number | string;
  bytes_used: number | string;
  status: string;
}

/**
 * The batch (its id in column `ref`) is valid at none but the locations of `scope`, a scoped
 * sub-user's: a batch that also works at another location is another's, as another account's is.
 */
function batchInScope(ref: string, scope: number[]) {
  if (scope.length === 0) return sql<boolean>`1 = 0`;
  return sql<boolean>`not exists (select 1 from voucher_batch_locations sbl where sbl.batch_id = ${sql.ref(ref)} and sbl.location_id not in (${sql.join(scope)}))`;
}

/** Rows per insert: 4 values each, far below SQLite's and PostgreSQL's parameter limits. */
const INSERT_CHUNK = 500;

export function createVoucherRepository() {
  /** Octets of the code's guest (a code is one guest: login type Vuser, identity the code). */
  const bytesUsed = sql<number>`coalesce((select g.radius_total_bandwidth_input + g.radius_total_bandwidth_output from guests g
    where g.account_id = v.account_id and g.social_network = 'Vuser' and g.network_user_id = lower(v.code)), 0)`;
  /** The code's state at `now`: revoked, then used up (time or data), expired, active, unused. */
  const statusAt = (now: string) => sql<string>`case
      when v.revoked_at is not null then 'revoked'
      when v.ends_at is not null and v.ends_at <= ${now} then 'used_up'
      when b.data_cap > 0 and v.first_used_at is not null and ${bytesUsed} >= b.data_cap then 'used_up'
      when b.expires_at is not null and b.expires_at < ${now} then 'expired'
      when v.first_used_at is not null then 'active'
      else 'unused' end`;

  function filtered(db: DB, accountId: number, f: VoucherListFilter, now: string) {
    let q = db
      .selectFrom("vouchers as v")
      .innerJoin("voucher_batches as b", "b.id", "v.batch_id")
      .where("v.account_id", "=", accountId);
    if (f.batchId !== undefined) q = q.where("v.batch_id", "=", f.batchId);
    if (f.code !== undefined) q = q.where("v.code", "=", f.code);
    if (f.locationId !== undefined) {
      const locationId = f.locationId;
      q = q.where((eb) =>
        eb.exists(eb.selectFrom("voucher_batch_locations as bl").select("bl.batch_id").whereRef("bl.batch_id", "=", "v.batch_id").where("bl.location_id", "=", locationId)),
      );
    }
    if (f.status !== undefined) q = q.where(statusAt(now), "=", f.status);
    if (f.scope) q = q.where(batchInScope("v.batch_id", f.scope));
    return q;
  }

  return {
    async insertBatch(db: DB, row: Omit<VoucherBatchRow, "id">, locationIds: number[]): Promise<number> {
      const { id } = await db.insertInto("voucher_batches").values(row).returning("id").executeTakeFirstOrThrow();
      await db
        .insertInto("voucher_batch_locations")
        .values(locationIds.map((location_id) => ({ batch_id: id, location_id })))
        .execute();
      return id;
    },

    /** Inserts the codes not taken yet (codes are unique over every account); answers those inserted. */
    async insertCodes(db: DB, accountId: number, batchId: number, codes: string[]): Promise<string[]> {
      const out: string[] = [];
      for (let i = 0; i < codes.length; i += INSERT_CHUNK) {
        const rows = await db
          .insertInto("vouchers")
          .values(codes.slice(i, i + INSERT_CHUNK).map((code) => ({ account_id: accountId, batch_id: batchId, code })))
          .onConflict((oc) => oc.column("code").doNothing())
          .returning("code")
          .execute();
        for (const r of rows) out.push(r.code);
      }
      return out;
    },

    async findOwnedBatches(db: DB, accountId: number, ids: number[], lock?: RowLock, scope: number[] | null = null): Promise<VoucherBatchRow[]> {
      if (ids.length === 0) return [];
      let q = db.selectFrom("voucher_batches").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
      if (scope) q = q.where(batchInScope("voucher_batches.id", scope));
      return withRowLock(db, q, lock).execute();
    },

    async findOwnedVouchers(db: DB, accountId: number, ids: number[], lock?: RowLock, scope: number[] | null = null): Promise<VoucherRow[]> {
      if (ids.length === 0) return [];
      let q = db.selectFrom("vouchers").selectAll().where("account_id", "=", accountId).where("id", "in", ids).orderBy("id");
      if (scope) q = q.where(batchInScope("vouchers.batch_id", scope));
      return withRowLock(db, q, lock).execute();
    },

    /** A voucher by id whatever its account (RADIUS, from a credential it issued). */
    async findOwnedVouchersAnyAccount(db: DB, id: number): Promise<VoucherRow[]> {
      return db.selectFrom("vouchers").selectAll().where("id", "=", id).execute();
    },

    async batchLocations(db: DB, batchIds: number[]): Promise<{ batch_id: number; location_id: number }[]> {
      if (batchIds.length === 0) return [];
      return db.selectFrom("voucher_batch_locations").select(["batch_id", "location_id"]).where("batch_id", "in", batchIds).orderBy("location_id").execute();
    },

    async listBatches(db: DB, accountId: number, offset: number, limit: number, scope: number[] | null = null) {
      let q = db
        .selectFrom("voucher_batches as b")
        .selectAll("b")
        .select((eb) => [
          eb
            .selectFrom("vouchers as v")
            .select(eb.fn.countAll<number>().as("n"))
            .whereRef("v.batch_id", "=", "b.id")
            .where("v.first_used_at", "is", null)
            .where("v.revoked_at", "is", null)
            .as("unused"),
          eb.selectFrom("vouchers as v").select(eb.fn.countAll<number>().as("n")).whereRef("v.batch_id", "=", "b.id").where("v.revoked_at", "is not", null).as("revoked"),
        ])
        .where("b.account_id", "=", accountId);
      if (scope) q = q.where(batchInScope("b.id", scope));
      return q.orderBy("b.id", "desc").offset(offset).limit(limit).execute();
    },

    async countBatches(db: DB, accountId: number, scope: number[] | null = null): Promise<number> {
      let q = db.selectFrom("voucher_batches").select((eb) => eb.fn.countAll<number>().as("n")).where("account_id", "=", accountId);
      if (scope) q = q.where(batchInScope("voucher_batches.id", scope));
      const r = await q.executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    async listVouchers(db: DB, accountId: number, f: VoucherListFilter, now: string, offset: number, limit: number): Promise<VoucherListRow[]> {
      return filtered(db, accountId, f, now)
        .selectAll("v")
        .select((eb) => [
          eb.selectFrom("voucher_devices as d").select(eb.fn.countAll<number>().as("n")).whereRef("d.voucher_id", "=", "v.id").as("devices_used"),
          bytesUsed.as("bytes_used"),
          statusAt(now).as("status"),
        ])
        .orderBy("v.id")
        .offset(offset)
        .limit(limit)
        .execute() as Promise<VoucherListRow[]>;
    },

    async countVouchers(db: DB, accountId: number, f: VoucherListFilter, now: string): Promise<number> {
      const r = await filtered(db, accountId, f, now).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    /** Revokes codes not revoked yet: one, or all of a batch. Answers how many. */
    async revoke(db: DB, accountId: number, target: { voucherId: number } | { batchId: number }, now: string): Promise<number> {
      let q = db.updateTable("vouchers").set({ revoked_at: now }).where("account_id", "=", accountId).where("revoked_at", "is", null);
      q = "voucherId" in target ? q.where("id", "=", target.voucherId) : q.where("batch_id", "=", target.batchId);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** The code of any account, with its batch, locked for the login that uses it. */
    async findByCode(db: DB, code: string, lock?: RowLock) {
      const q = db
        .selectFrom("vouchers as v")
        .innerJoin("voucher_batches as b", "b.id", "v.batch_id")
        .select([
          "v.id",
          "v.account_id",
          "v.batch_id",
          "v.code",
          "v.first_used_at",
          "v.ends_at",
          "v.revoked_at",
          "b.duration_minutes",
          "b.data_cap",
          "b.bandwidth_up",
          "b.bandwidth_down",
          "b.devices_per_code",
          "b.expires_at",
        ])
        .where("v.code", "=", code);
      return withRowLock(db, q, lock).executeTakeFirst();
    },

    async worksAt(db: DB, batchId: number, locationId: number): Promise<boolean> {
      const r = await db.selectFrom("voucher_batch_locations").select("batch_id").where("batch_id", "=", batchId).where("location_id", "=", locationId).executeTakeFirst();
      return r !== undefined;
    },

    async devicesOf(db: DB, voucherId: number): Promise<string[]> {
      return (await db.selectFrom("voucher_devices").select("device_key").where("voucher_id", "=", voucherId).execute()).map((r) => r.device_key);
    },

    async addDevice(db: DB, voucherId: number, deviceKey: string, now: string): Promise<void> {
      await db
        .insertInto("voucher_devices")
        .values({ voucher_id: voucherId, device_key: deviceKey, first_used_at: now })
        .onConflict((oc) => oc.columns(["voucher_id", "device_key"]).doNothing())
        .execute();
    },

    async markFirstUse(db: DB, voucherId: number, now: string, endsAt: string): Promise<void> {
      await db.updateTable("vouchers").set({ first_used_at: now, ends_at: endsAt }).where("id", "=", voucherId).where("first_used_at", "is", null).execute();
    },

    async bytesUsedByCode(db: DB, accountId: number, code: string): Promise<number> {
      const r = await db
        .selectFrom("guests")
        .select(["radius_total_bandwidth_input as i", "radius_total_bandwidth_output as o"])
        .where("account_id", "=", accountId)
        .where("social_network", "=", "Vuser")
        .where("network_user_id", "=", code.toLowerCase())
        .executeTakeFirst();
      return r ? Number(r.i) + Number(r.o) : 0;
    },

    /** The codes of a batch that can still be handed out (never used, not revoked), in order. */
    async printableCodes(db: DB, batchId: number): Promise<string[]> {
      const rows = await db
        .selectFrom("vouchers")
        .select("code")
        .where("batch_id", "=", batchId)
        .where("first_used_at", "is", null)
        .where("revoked_at", "is", null)
        .orderBy("id")
        .execute();
      return rows.map((r) => r.code);
    },
  };
}

export type VoucherRepository = ReturnType<typeof createVoucherRepository>;
