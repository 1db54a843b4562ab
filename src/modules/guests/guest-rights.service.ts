/**
 * Data-subject rights: a guest's export (everything held about them, as JSON) and erasure, and the
 * per-account retention that erases guests not seen for N days (docs/guest-data.md).
 */
import { sql } from "kysely";
import type { DB } from "../../db/database.js";
import { dialectOf } from "../../db/dialect.js";
import { inTransaction, transaction } from "../../db/transaction.js";
import { toDbDatetime } from "../../db/time.js";
import { DAY_MS } from "../../durations.js";
import type { Ctx } from "../context.js";
import { enqueueEvent } from "../webhooks/webhook-events.js";
import { ERASED_NETWORK } from "./guest-rights.repository.js";
import type { GuestRow } from "./guests.repository.js";

/** Everything held about the guest. */
export async function exportGuest(ctx: Ctx, g: GuestRow) {
  const x = await ctx.repos.guestRights.exportOf(ctx.db, g);
  const { account_id: _account, ...profile } = g;
  return {
    guest: {
      ...profile,
      radius_session_total_time: Number(g.radius_session_total_time),
      radius_total_bandwidth_input: Number(g.radius_total_bandwidth_input),
      radius_total_bandwidth_output: Number(g.radius_total_bandwidth_output),
    },
    macs: x.macs,
    logins: x.logins.map(({ account_id: _a, ...l }) => l),
    locations: x.locations,
    mac_addresses: x.guestMacs,
    radius_sessions: x.sessions.map((s) => ({
      ...s,
      session_time: Number(s.session_time),
      input_octets: Number(s.input_octets),
      output_octets: Number(s.output_octets),
    })),
    daily_usage: x.usage.map((u) => ({ ...u, octets: Number(u.octets) })),
    visits: x.visits,
    portal_credentials: x.credentials,
    sms_codes: x.smsCodes,
    portal_grants: x.grants,
    messages: x.messages.map(({ created_ms, finished_ms, ...m }) => ({
      ...m,
      attempts: Number(m.attempts),
      created_at: new Date(Number(created_ms)).toISOString(),
      finished_at: finished_ms === null ? "" : new Date(Number(finished_ms)).toISOString(),
    })),
    survey_answers: x.answers,
    consent_changes: x.consent,
  };
}

/** RADIUS's part of an erasure: the guest's one-time portal credentials, a table RADIUS alone writes (its repository). */
export interface GuestCredentialOwner {
  deleteGuestCredentials(db: DB, guestId: number): Promise<void>;
}

/** What an erasure takes: the modules' repositories and the owner of the portal credentials. */
export type ErasureCtx = Ctx & { readonly radius: GuestCredentialOwner };

/**
 * Erases the guest's personal data everywhere (see GuestRightsRepository.erase, and the
 * credentials through their owner), in `ctx.db`'s transaction or a new one, and queues
 * guest.erased for the account's webhooks. A stand-in of an erased guest has nothing left to
 * erase: false.
 */
export async function eraseGuest(ctx: ErasureCtx, g: GuestRow, at: Date = new Date()): Promise<boolean> {
  if (g.social_network === ERASED_NETWORK) return false;
  return inTransaction(ctx.db, async (trx) => {
    await ctx.radius.deleteGuestCredentials(trx, g.id);
    // Passpoint credentials: gone, so that none authenticates as the guest or ties its devices together again.
    await ctx.repos.passpoint.deleteGuestCredentials(trx, g.id);
    await ctx.repos.guestRights.erase(trx, g, toDbDatetime(at));
    await enqueueEvent(trx, g.account_id, "guest.erased", { guest_id: g.id, erased_at: toDbDatetime(at) }, null, at);
    return true;
  });
}

export async function setRetention(ctx: Ctx, accountId: number, days: number): Promise<void> {
  await ctx.repos.guestRights.setRetention(ctx.db, accountId, days);
}

export async function retentionOf(ctx: Ctx, accountId: number): Promise<number> {
  return ctx.repos.guestRights.retentionOf(ctx.db, accountId);
}

const RETENTION_BATCH = 200;

/**
 * Erases every guest not seen for its account's retention_days. Idempotent (an erased guest is
 * gone; the stand-ins are never candidates), one guest per transaction. On PostgreSQL one instance
 * at a time: a session advisory lock per schema, tried, never waited for; returns -1 when another
 * instance holds it. Returns the number of guests erased.
 */
export async function runRetention(ctx: ErasureCtx, now: Date = new Date()): Promise<number> {
  if (dialectOf(ctx.db) !== "postgres") return retentionPass(ctx, ctx.db, now);
  return ctx.db.connection().execute(async (conn) => {
    const key = sql`hashtext(current_schema() || '.guestwifi.retention')`;
    const got = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(conn);
    if (!got.rows[0]?.locked) return -1;
    try {
      return await retentionPass(ctx, conn, now);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

async function retentionPass(ctx: ErasureCtx, db: DB, now: Date): Promise<number> {
  let erased = 0;
  for (const account of await ctx.repos.guestRights.accountsWithRetention(db)) {
    const before = toDbDatetime(new Date(now.getTime() - Number(account.retention_days) * DAY_MS));
    for (;;) {
      const batch = await ctx.repos.guestRights.unseenSince(db, account.id, before, RETENTION_BATCH);
      for (const g of batch) {
        const done = await transaction(db, async (trx) => {
          // Seen again (or erased by another call) since the batch was read: leave it.
          const [fresh] = await ctx.repos.guests.findOwnedForUpdate(trx, account.id, [g.id]);
          if (!fresh || fresh.updated_at >= before || (fresh.radius_session_last_datetime ?? "") >= before) return false;
          return eraseGuest({ ...ctx, db: trx }, fresh, now);
        });
        if (done) erased++;
      }
      if (batch.length < RETENTION_BATCH) break;
    }
  }
  return erased;
}


