import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { SmsCodesTable } from "../../db/schema.js";

export type SmsCodeRow = Selectable<SmsCodesTable>;

export const smsCodeRepository = {
  async insert(db: DB, values: { location_id: number; phone_number: string; code_hash: string; created_at: string; expires_at: string }): Promise<number> {
    const row = await db.insertInto("sms_codes").values({ ...values, attempts: 0 }).returning("id").executeTakeFirstOrThrow();
    return row.id;
  },

  async delete(db: DB, id: number): Promise<void> {
    await db.deleteFrom("sms_codes").where("id", "=", id).execute();
  },

  /** Codes sent to this number since `since` (any location): what the per-number cap counts. */
  async countSince(db: DB, phone: string, since: string): Promise<number> {
    const row = await db
      .selectFrom("sms_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("phone_number", "=", phone)
      .where("created_at", ">=", since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The newest unused, unexpired code for this number at this location. */
  async findActive(db: DB, locationId: number, phone: string, now: string): Promise<SmsCodeRow | undefined> {
    return db
      .selectFrom("sms_codes")
      .selectAll()
      .where("phone_number", "=", phone)
      .where("location_id", "=", locationId)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  },

  /** Counts one attempt, atomically, unless the code has had `max` already. True when the attempt may go on. */
  async takeAttempt(db: DB, id: number, max: number): Promise<boolean> {
    const r = await db
      .updateTable("sms_codes")
      .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
      .where("id", "=", id)
      .where("attempts", "<", max)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Marks the code used; false when another request used it first. */
  async markUsed(db: DB, id: number, now: string): Promise<boolean> {
    const r = await db.updateTable("sms_codes").set({ used_at: now }).where("id", "=", id).where("used_at", "is", null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
};
