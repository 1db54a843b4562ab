/** SQL of marketing consent changes outside a login: the guest's flag, the record of the change, numbers that replied STOP. */
import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { ConsentEventsTable } from "../../db/schema.js";
import type { GuestRow } from "./guests.repository.js";

export type ConsentEventRow = Selectable<ConsentEventsTable>;

export function createGuestConsentRepository() {
  return {
    /** Sets the guest's marketing choice to "no" (with when); false when it already was. */
    async withdraw(db: DB, guestId: number, now: string): Promise<boolean> {
      const r = await db
        .updateTable("guests")
        .set({ marketing_opt_in: 0, marketing_opt_in_at: now, marketing_version: "" })
        .where("id", "=", guestId)
        .where("marketing_opt_in", "=", 1)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async record(db: DB, e: Omit<ConsentEventRow, "id">): Promise<void> {
      await db.insertInto("consent_events").values(e).execute();
    },

    /** Guests (every account's) reached at this number: their profile's number, or the identity of a text-message login. */
    async guestsWithPhone(db: DB, phone: string): Promise<GuestRow[]> {
      return db
        .selectFrom("guests")
        .selectAll()
        .where((eb) => eb.or([eb("phone_number", "=", phone), eb.and([eb("social_network", "=", "Twilio"), eb("network_user_id", "=", phone)])]))
        .orderBy("id")
        .execute();
    },

    async addSmsOptOut(db: DB, phone: string, now: string): Promise<void> {
      await db.insertInto("sms_opt_outs").values({ phone_number: phone, opted_out_at: now }).onConflict((oc) => oc.column("phone_number").doNothing()).execute();
    },

    async removeSmsOptOut(db: DB, phone: string): Promise<void> {
      await db.deleteFrom("sms_opt_outs").where("phone_number", "=", phone).execute();
    },

    async smsOptedOut(db: DB, phone: string): Promise<boolean> {
      return (await db.selectFrom("sms_opt_outs").select("phone_number").where("phone_number", "=", phone).executeTakeFirst()) !== undefined;
    },
  };
}

export type GuestConsentRepository = ReturnType<typeof createGuestConsentRepository>;
