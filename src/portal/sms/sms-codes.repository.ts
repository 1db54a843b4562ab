import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { SmsCodesTable } from "../../db/schema.js";
import { inTransaction, withRowLock } from "../../db/transaction.js";

export type SmsCodeRow = Selectable<SmsCodesTable>;

type NewSmsCode = { location_id: number; phone_number: string; code_hash: string; created_at: string; expires_at: string };

/** SMS login codes. Made per app like every repository (src/app-deps.ts). */
export function createSmsCodeRepository() {
  return {
    /**
     * Records a code unless its location has already sent `budget` codes since `since`: the count and
     * the insert hold the location's row lock, so concurrent requests and instances cannot both take
     * the last one. Undefined when the budget is spent.
     */
    async insertWithinBudget(db: DB, values: NewSmsCode, since: string, budget: number): Promise<number | undefined> {
      return inTransaction(db, async (trx) => {
        await withRowLock(trx, trx.selectFrom("locations").select("id").where("id", "=", values.location_id), "hold").execute();
        const sent = await trx
          .selectFrom("sms_codes")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("location_id", "=", values.location_id)
          .where("created_at", ">=", since)
          .executeTakeFirstOrThrow();
        if (Number(sent.n) >= budget) return undefined;
        const row = await trx.insertInto("sms_codes").values({ ...values, attempts: 0 }).returning("id").executeTakeFirstOrThrow();
        return row.id;
      });
    },

    async delete(db: DB, id: number): Promise<void> {
      await db.deleteFrom("sms_codes").where("id", "=", id).execute();
    },

    /**
     * Codes sent to this number (any location) since `daySince`, how many of them since
     * `windowSince` (later), and when the oldest was sent: what the per-number caps count.
     */
    async sentToNumber(db: DB, phone: string, windowSince: string, daySince: string): Promise<{ inWindow: number; inDay: number; oldest: string | null }> {
      const row = await db
        .selectFrom("sms_codes")
        .select((eb) => [
          eb.fn.countAll<number>().as("in_day"),
          eb.fn.sum<number>(eb.case().when("created_at", ">=", windowSince).then(1).else(0).end()).as("in_window"),
          eb.fn.min("created_at").as("oldest"),
        ])
        .where("phone_number", "=", phone)
        .where("created_at", ">=", daySince)
        .executeTakeFirstOrThrow();
      return { inWindow: Number(row.in_window ?? 0), inDay: Number(row.in_day), oldest: row.oldest ?? null };
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
}

export type SmsCodeRepository = ReturnType<typeof createSmsCodeRepository>;
