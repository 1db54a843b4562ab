/**
 * SQL of the data-subject rights: everything held about one guest (export), and its erasure:
 * personal data deleted, what analytics count moved to an anonymous stand-in guest.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../../db/database.js";
import type { GuestRow } from "./guests.repository.js";

/** The social_network of the anonymous stand-in that keeps an erased guest's counts. */
export const ERASED_NETWORK = "erased";

function accountLocations(db: DB, accountId: number) {
  return db.selectFrom("locations").select("id").where("account_id", "=", accountId);
}

function accountDevices(db: DB, accountId: number) {
  return db.selectFrom("devices").select("id").where("account_id", "=", accountId);
}

/** Phone numbers the guest gave: its profile's, and its identity when it logged in by text message. */
function phonesOf(g: GuestRow): string[] {
  const out = new Set<string>();
  if (g.phone_number) out.add(g.phone_number);
  if (g.social_network === "Twilio" && g.network_user_id) out.add(g.network_user_id);
  return [...out];
}

export function createGuestRightsRepository() {
  return {
    /** Every client MAC the guest was seen with (logins, the MAC table, RADIUS sessions). */
    async macsOf(db: DB, guestId: number): Promise<string[]> {
      const rows = await sql<{ mac: string }>`
        select client_mac as mac from logins where guest_id = ${guestId} and client_mac <> ''
        union select client_mac from guest_macs where guest_id = ${guestId}
        union select client_mac from radius_sessions where guest_id = ${guestId} and client_mac <> ''`.execute(db);
      return rows.rows.map((r) => r.mac).sort();
    },

    async exportOf(db: DB, g: GuestRow) {
      const macs = await this.macsOf(db, g.id);
      const phones = phonesOf(g);
      const [logins, locations, guestMacs, sessions, usage, visits, credentials, smsCodes, grants, messages, answers, consent] = await Promise.all([
        db.selectFrom("logins").selectAll().where("guest_id", "=", g.id).orderBy("id").execute(),
        db.selectFrom("guest_locations").selectAll().where("guest_id", "=", g.id).orderBy("location_id").execute(),
        db.selectFrom("guest_macs").select(["client_mac", "last_login_at"]).where("guest_id", "=", g.id).orderBy("client_mac").execute(),
        db
          .selectFrom("radius_sessions")
          .selectAll()
          .where((eb) =>
            eb.or([
              eb("guest_id", "=", g.id),
              ...(macs.length > 0 ? [eb.and([eb("client_mac", "in", macs), eb("device_id", "in", accountDevices(db, g.account_id))])] : []),
            ]),
          )
          .orderBy("id")
          .execute(),
        db.selectFrom("daily_usage").selectAll().where("guest_id", "=", g.id).orderBy("day").orderBy("location_id").execute(),
        db.selectFrom("daily_visitors").select(["location_id", "day"]).where("guest_id", "=", g.id).orderBy("day").orderBy("location_id").execute(),
        db
          .selectFrom("portal_credentials")
          .select(["username", "location_id", "device_id", "client_mac", "created_at", "expires_at", "used_at"])
          .where("guest_id", "=", g.id)
          .orderBy("id")
          .execute(),
        phones.length === 0
          ? []
          : db
              .selectFrom("sms_codes")
              .select(["location_id", "phone_number", "attempts", "created_at", "expires_at", "used_at"])
              .where("phone_number", "in", phones)
              .where("location_id", "in", accountLocations(db, g.account_id))
              .orderBy("id")
              .execute(),
        macs.length === 0
          ? []
          : db
              .selectFrom("portal_grants")
              .select(["location_id", "client_ip", "client_mac", "granted_at", "expires_at"])
              .where("client_mac", "in", macs)
              .where("location_id", "in", accountLocations(db, g.account_id))
              .orderBy("id")
              .execute(),
        db
          .selectFrom("messages")
          .select(["id", "kind", "channel", "automation_id", "location_id", "recipient", "subject", "language", "status", "attempts", "trigger_at", "created_ms", "finished_ms", "last_error"])
          .where("guest_id", "=", g.id)
          .orderBy("id")
          .execute(),
        db.selectFrom("survey_answers").select(["message_id", "automation_id", "location_id", "score", "comment", "answered_at"]).where("guest_id", "=", g.id).orderBy("id").execute(),
        db.selectFrom("consent_events").select(["marketing_opt_in", "source", "message_id", "changed_at"]).where("guest_id", "=", g.id).orderBy("id").execute(),
      ]);
      return { macs, logins, locations, guestMacs, sessions, usage, visits, credentials, smsCodes, grants, messages, answers, consent };
    },

    /**
     * Erases the guest (run in a transaction that locked its row). Counts stay: logins, visits,
     * first visits, usage and RADIUS totals are moved to a new anonymous guest that nothing links to
     * the person; every personal value (profile, identity, MACs, user agents, addresses, phone
     * numbers) is deleted or blanked. The guest's portal credentials are RADIUS's to delete, before
     * this (eraseGuest). Returns the stand-in's id.
     */
    async erase(db: DB, g: GuestRow, now: string): Promise<number> {
      const macs = await this.macsOf(db, g.id);
      const phones = phonesOf(g);
      const anon = await db
        .insertInto("guests")
        .values({
          account_id: g.account_id,
          social_network: ERASED_NETWORK,
          network_user_id: randomUUID(),
          radius_session_total_time: g.radius_session_total_time,
          radius_total_bandwidth_input: g.radius_total_bandwidth_input,
          radius_total_bandwidth_output: g.radius_total_bandwidth_output,
          radius_session_first_datetime: g.radius_session_first_datetime,
          radius_session_last_datetime: g.radius_session_last_datetime,
          created_at: g.created_at,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const to = anon.id;
      await db.updateTable("logins").set({ guest_id: to, client_mac: "", user_agent: "" }).where("guest_id", "=", g.id).execute();
      await db.updateTable("guest_locations").set({ guest_id: to }).where("guest_id", "=", g.id).execute();
      await db.updateTable("daily_visitors").set({ guest_id: to }).where("guest_id", "=", g.id).execute();
      await db.updateTable("daily_usage").set({ guest_id: to }).where("guest_id", "=", g.id).execute();
      await db.updateTable("radius_sessions").set({ guest_id: to, client_mac: "", username: "", framed_ip: null }).where("guest_id", "=", g.id).execute();
      await db.deleteFrom("guest_macs").where("guest_id", "=", g.id).execute();
      if (macs.length > 0) {
        await db
          .updateTable("radius_sessions")
          .set({ client_mac: "", username: "", framed_ip: null })
          .where("client_mac", "in", macs)
          .where("device_id", "in", accountDevices(db, g.account_id))
          .execute();
        await db.deleteFrom("portal_grants").where("client_mac", "in", macs).where("location_id", "in", accountLocations(db, g.account_id)).execute();
      }
      // Messages to the guest, their log and answers, and the guest's consent changes.
      const sent = db.selectFrom("messages").select("id").where("guest_id", "=", g.id);
      await db.deleteFrom("message_attempts").where("message_id", "in", sent).execute();
      await db.deleteFrom("survey_answers").where("guest_id", "=", g.id).execute();
      await db.deleteFrom("messages").where("guest_id", "=", g.id).execute();
      await db.deleteFrom("consent_events").where("guest_id", "=", g.id).execute();
      if (phones.length > 0) {
        await db.deleteFrom("sms_opt_outs").where("phone_number", "in", phones).execute();
        await db.deleteFrom("sms_codes").where("phone_number", "in", phones).where("location_id", "in", accountLocations(db, g.account_id)).execute();
      }
      await db.deleteFrom("guests").where("id", "=", g.id).execute();
      return to;
    },

    /** Guests of the account not seen (login or RADIUS session) since `before`, stand-ins excluded. */
    async unseenSince(db: DB, accountId: number, before: string, limit: number): Promise<GuestRow[]> {
      return db
        .selectFrom("guests")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("social_network", "<>", ERASED_NETWORK)
        .where("updated_at", "<", before)
        .where((eb) => eb.or([eb("radius_session_last_datetime", "is", null), eb("radius_session_last_datetime", "<", before)]))
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    async setRetention(db: DB, accountId: number, days: number): Promise<void> {
      await db.updateTable("accounts").set({ retention_days: days }).where("id", "=", accountId).execute();
    },

    async retentionOf(db: DB, accountId: number): Promise<number> {
      const r = await db.selectFrom("accounts").select("retention_days").where("id", "=", accountId).executeTakeFirst();
      return Number(r?.retention_days ?? 0);
    },

    async accountsWithRetention(db: DB): Promise<{ id: number; retention_days: number }[]> {
      return db.selectFrom("accounts").select(["id", "retention_days"]).where("retention_days", ">", 0).orderBy("id").execute();
    },
  };
}

export type GuestRightsRepository = ReturnType<typeof createGuestRightsRepository>;
