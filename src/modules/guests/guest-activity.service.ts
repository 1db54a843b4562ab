/**
 * Recording what guests do: a login through the portal, a visit (a guest connected on a day),
 * both keeping the daily aggregates that analytics read. The portal, RADIUS and the demo data
 * generator all record through here, never around it.
 */
import type { DB } from "../../db/database.js";
import { counterShard, dialectOf, increment } from "../../db/dialect.js";
import { toDbDatetime } from "../../db/time.js";
import { inTransaction } from "../../db/transaction.js";
import { enqueueAutomations, mayHaveAutomations } from "../outbox/outbox-triggers.js";
import { enqueueEvent, mayHaveWebhooks } from "../webhooks/webhook-events.js";
import { type GuestProfileInput, type LoginInput, consentColumns, loginEventData } from "./login-input.js";
import { localDay, localDayHour } from "./local-day.js";
import { type LoginRow, recordLoginInOneStatement } from "./postgres-login.js";
import { parseUserAgent } from "./user-agent.js";

export type { GuestProfileInput, LoginConsent, LoginInput } from "./login-input.js";

const PROFILE_LIMITS: Record<keyof GuestProfileInput, number> = {
  email: 254,
  full_name: 255,
  username: 255,
  gender: 32,
  phone_number: 32,
  birthdate: 10,
  age: 16,
  locale: 32,
  picture_url: 2048,
};

/** Only the fields given (non-empty), cut to their column sizes: a login never blanks a known field. */
function profileUpdate(p: GuestProfileInput): GuestProfileInput {
  const out: GuestProfileInput = {};
  for (const [k, max] of Object.entries(PROFILE_LIMITS) as [keyof GuestProfileInput, number][]) {
    const v = p[k];
    if (typeof v === "string" && v.trim() !== "") out[k] = v.trim().slice(0, max);
  }
  return out;
}


/** Records a login and everything that follows from it, atomically. */
export async function recordLogin(db: DB, input: LoginInput): Promise<{ guestId: number; loginId: number }> {
  const at = input.at ?? new Date();
  const now = toDbDatetime(at);
  const { day, hour } = localDayHour(at, input.timezone);
  const profile = profileUpdate(input.profile);
  const agent = parseUserAgent(input.userAgent);
  const identity = input.identity.trim().toLowerCase().slice(0, 255);

  const consent = consentColumns(input.consent, now);
  const row: LoginRow = { input, at, now, day, hour, profile, agent, identity, consent };
  // An account with a welcome automation takes the transaction below on PostgreSQL too: it queues the message there.
  if (dialectOf(db) === "postgres" && !(await mayHaveAutomations(db, input.accountId, "welcome"))) {
    return recordLoginInOneStatement(db, row, await mayHaveWebhooks(db, input.accountId));
  }

  return inTransaction(db, async (trx) => {
    const guest = await trx
      .insertInto("guests")
      .values({
        account_id: input.accountId,
        social_network: input.loginType,
        network_user_id: identity,
        ...profile,
        ...consent.guest,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(["account_id", "social_network", "network_user_id"]).doUpdateSet({ ...profile, ...consent.guest, updated_at: now }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();

    const login = await trx
      .insertInto("logins")
      .values({
        account_id: input.accountId,
        guest_id: guest.id,
        location_id: input.locationId,
        campaign_id: input.campaignId,
        device_id: input.deviceId,
        login_type: input.loginType,
        client_mac: input.clientMac,
        user_agent: input.userAgent.slice(0, 1024),
        ...agent,
        logged_at: now,
        local_day: day,
        ...consent.login,
        voucher_id: input.voucherId ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    const firstHere = await trx
      .insertInto("guest_locations")
      .values({ guest_id: guest.id, location_id: input.locationId, campaign_id: input.campaignId, first_login_at: now })
      .onConflict((oc) => oc.columns(["guest_id", "location_id"]).doNothing())
      .executeTakeFirst();
    if (Number(firstHere.numInsertedOrUpdatedRows ?? 0) > 0) {
      // A new guest of this location: counted on the day of the first login, for "new against returning".
      await trx
        .insertInto("daily_new_guests")
        .values({ location_id: input.locationId, day, shard: counterShard(trx), count: 1 })
        .onConflict((oc) => oc.columns(["location_id", "day", "shard"]).doUpdateSet({ count: increment("daily_new_guests.count") }))
        .execute();
      await enqueueAutomations(db, trx, "welcome", { accountId: input.accountId, guestId: guest.id, locationId: input.locationId, at: now, key: `l${input.locationId}` });
    }

    if (input.clientMac) {
      await trx
        .insertInto("guest_macs")
        .values({ account_id: input.accountId, client_mac: input.clientMac, guest_id: guest.id, last_login_at: now })
        .onConflict((oc) => oc.columns(["account_id", "client_mac"]).doUpdateSet({ guest_id: guest.id, last_login_at: now }))
        .execute();
    }

    await trx
      .insertInto("daily_logins")
      .values({ location_id: input.locationId, day, login_type: input.loginType, shard: counterShard(trx), count: 1 })
      .onConflict((oc) => oc.columns(["location_id", "day", "login_type", "shard"]).doUpdateSet({ count: increment("daily_logins.count") }))
      .execute();

    await trx
      .insertInto("hourly_logins")
      .values({ location_id: input.locationId, day, hour, shard: counterShard(trx), count: 1 })
      .onConflict((oc) => oc.columns(["location_id", "day", "hour", "shard"]).doUpdateSet({ count: increment("hourly_logins.count") }))
      .execute();

    await countVisit(trx, input.locationId, day, guest.id);
    if (input.credential) await trx.insertInto("portal_credentials").values({ ...input.credential, guest_id: guest.id }).execute();
    await enqueueEvent(trx, input.accountId, "guest.login", { guest_id: guest.id, login_id: login.id, ...loginEventData(input, profile, at) }, input.locationId, at);
    return { guestId: guest.id, loginId: login.id };
  });
}


/** Counts the guest as a visitor of the location on that local day, once per day. Returns true the first time. */
export async function countVisit(db: DB, locationId: number, day: string, guestId: number): Promise<boolean> {
  const inserted = await db
    .insertInto("daily_visitors")
    .values({ location_id: locationId, day, guest_id: guestId })
    .onConflict((oc) => oc.columns(["location_id", "day", "guest_id"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await db
    .insertInto("daily_visits")
    .values({ location_id: locationId, day, shard: counterShard(db), count: 1 })
    .onConflict((oc) => oc.columns(["location_id", "day", "shard"]).doUpdateSet({ count: increment("daily_visits.count") }))
    .execute();
  return true;
}

/** A visit without a login (a returning guest let in by RADIUS): counted on the location's local day. */
export async function recordVisit(
  db: DB,
  input: { locationId: number; timezone: string; guestId: number; at?: Date },
): Promise<boolean> {
  const day = localDay(input.at ?? new Date(), input.timezone);
  return inTransaction(db, (trx) => countVisit(trx, input.locationId, day, input.guestId));
}

/**
 * Data a guest used at a location, counted on the local day of `at` (what RADIUS accounting adds up
 * from a gateway's octet counters; the demo generator writes it directly).
 */
export async function recordUsage(
  db: DB,
  input: { guestId: number; locationId: number; timezone: string; octets: number; at?: Date },
): Promise<void> {
  const day = localDay(input.at ?? new Date(), input.timezone);
  await db
    .insertInto("daily_usage")
    .values({ guest_id: input.guestId, location_id: input.locationId, day, octets: input.octets })
    .onConflict((oc) => oc.columns(["guest_id", "location_id", "day"]).doUpdateSet({ octets: increment("daily_usage.octets", input.octets) }))
    .execute();
}
