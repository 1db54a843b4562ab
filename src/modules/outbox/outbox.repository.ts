/**
 * SQL of the message outbox (messages, message_attempts): queueing, the worker's reads and writes,
 * cancellations, the log. Queueing runs in the caller's transaction, so a message exists exactly
 * when what caused it committed (see outbox-triggers.ts for the automations' triggers).
 */
import { type Insertable, type Selectable, sql } from "kysely";
import type { DB } from "../../db/database.js";
import { toDbDatetime } from "../../db/time.js";
import { claimLease, finishLease, type LeaseOutcome, type AttemptLine, outboxWritten } from "../../db/outbox.js";
import type { MessageAttemptsTable, MessagesTable } from "../../db/schema.js";

export type MessageRow = Selectable<MessagesTable>;
export type MessageAttemptRow = Selectable<MessageAttemptsTable>;
export type NewMessage = Omit<Insertable<MessagesTable>, "id" | "status" | "attempts" | "lease_until_ms">;

export type MessageStatus = "pending" | "sent" | "failed" | "skipped" | "cancelled";
export const MESSAGE_STATUSES: readonly MessageStatus[] = ["pending", "sent", "failed", "skipped", "cancelled"];

/** What the schedule's inserts need of an automation. */
export interface ScheduledAutomation {
  id: number;
  account_id: number;
  channel: string;
}

export interface MessageFilter {
  accountId: number;
  guestId?: number;
  locationId?: number;
  automationId?: number;
  status?: string;
  kind?: string;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** bigint columns come back as strings from PostgreSQL. */
function row(r: MessageRow): MessageRow {
  return {
    ...r,
    created_ms: Number(r.created_ms),
    next_attempt_ms: Number(r.next_attempt_ms),
    lease_until_ms: Number(r.lease_until_ms),
    finished_ms: num(r.finished_ms),
    attempts: Number(r.attempts),
  };
}

/** Pending messages matching `where` become cancelled, with the reason. */
async function cancelPending(db: DB, where: { guest_id?: number; kind?: string; automation_id?: number }, reason: string, nowMs: number): Promise<number> {
  let q = db
    .updateTable("messages")
    .set({ status: "cancelled", last_error: reason.slice(0, 255), finished_ms: nowMs, lease_until_ms: 0 })
    .where("status", "=", "pending");
  for (const [column, value] of Object.entries(where) as ["guest_id" | "kind" | "automation_id", string | number][]) q = q.where(column, "=", value);
  return Number((await q.executeTakeFirst()).numUpdatedRows);
}

/** A message written at once (a test e-mail, a report): who, why, and when it was made. */
export interface ComposedMessage {
  accountId: number | null;
  kind: "test" | "quick-report";
  recipient: string;
  subUserId?: number | null;
  locationId?: number | null;
  dedupeKey?: string | null;
  at: Date;
}

export function createOutboxRepository() {
  return {
    /** Queues one message; undefined when a message with its dedupe_key already exists. */
    async insert(db: DB, m: NewMessage): Promise<number | undefined> {
      const r = await db
        .insertInto("messages")
        .values(m)
        .onConflict((oc) => oc.column("dedupe_key").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (r) outboxWritten(db, "messages");
      return r?.id;
    },

    async find(db: DB, id: number): Promise<MessageRow | undefined> {
      const r = await db.selectFrom("messages").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? row(r) : undefined;
    },

    /** Pending messages that are due and held by nobody, oldest due first. */
    async due(db: DB, nowMs: number, limit: number, channels: string[]): Promise<MessageRow[]> {
      if (channels.length === 0) return [];
      const rows = await db
        .selectFrom("messages")
        .selectAll()
        .where("status", "=", "pending")
        .where("next_attempt_ms", "<=", nowMs)
        .where("lease_until_ms", "<", nowMs)
        .where("channel", "in", channels)
        .orderBy("next_attempt_ms")
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map(row);
    },

    claim(db: DB, id: number, nowMs: number, leaseUntil: number): Promise<boolean> {
      return claimLease(db, "messages", id, nowMs, leaseUntil);
    },

    /** Records what an attempt (or the decision not to make one: no `attempt`) came to, while this instance holds the message. */
    finish(db: DB, id: number, leaseUntil: number, attempt: AttemptLine | undefined, next: LeaseOutcome): Promise<boolean> {
      return finishLease(db, "messages", id, leaseUntil, attempt, next);
    },

    /** Stores the message as it will be sent (first attempt of an automation's message), while the lease is held. */
    async writeContent(db: DB, id: number, leaseUntil: number, c: { recipient: string; subject: string; language: string; content: string }): Promise<boolean> {
      const r = await db
        .updateTable("messages")
        .set(c)
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("lease_until_ms", "=", leaseUntil)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /**
     * Queues an e-mail written now, in the caller's transaction: the row first (its id goes into the
     * Message-ID and the links), then `compose` makes its subject and content. Undefined when the
     * dedupe key was taken (nothing composed).
     */
    async queueComposed(db: DB, m: ComposedMessage, compose: (id: number) => Promise<{ subject: string; content: string }>): Promise<number | undefined> {
      const ms = m.at.getTime();
      const id = await this.insert(db, {
        account_id: m.accountId,
        kind: m.kind,
        channel: "email",
        automation_id: null,
        guest_id: null,
        location_id: m.locationId ?? null,
        sub_user_id: m.subUserId ?? null,
        dedupe_key: m.dedupeKey ?? null,
        trigger_at: toDbDatetime(m.at),
        recipient: m.recipient,
        content: null,
        created_ms: ms,
        next_attempt_ms: ms,
        last_status: null,
        last_error: null,
        finished_ms: null,
        provider_id: null,
      });
      if (id === undefined) return undefined;
      const { subject, content } = await compose(id);
      await db.updateTable("messages").set({ subject, content }).where("id", "=", id).execute();
      return id;
    },

    /** Attempts on a channel since `sinceMs`, every instance's: what the rate per minute counts. */
    async attemptsSince(db: DB, channel: string, sinceMs: number): Promise<number> {
      const r = await db
        .selectFrom("message_attempts")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("channel", "=", channel)
        .where("attempted_ms", ">=", sinceMs)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Messages of an automation sent to a guest since `sinceMs` (the automation's cap). */
    async sentTo(db: DB, automationId: number, guestId: number, sinceMs: number): Promise<number> {
      const r = await db
        .selectFrom("messages")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("automation_id", "=", automationId)
        .where("guest_id", "=", guestId)
        .where("status", "=", "sent")
        .where("finished_ms", ">=", sinceMs)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Withdraws the marketing messages not yet sent to a guest (an unsubscribe, a STOP). Returns how many. */
    cancelMarketing(db: DB, guestId: number, reason: string, nowMs: number): Promise<number> {
      return cancelPending(db, { guest_id: guestId, kind: "automation" }, reason, nowMs);
    },

    /** Withdraws an automation's messages not yet sent (it was deleted or paused). */
    cancelOfAutomation(db: DB, automationId: number, reason: string, nowMs: number): Promise<number> {
      return cancelPending(db, { automation_id: automationId }, reason, nowMs);
    },

    /** A page of the log, ordered by id, and how many messages the filter finds. */
    async list(db: DB, f: MessageFilter, page: number, perPage: number): Promise<{ rows: MessageRow[]; total: number }> {
      let q = db.selectFrom("messages").where("account_id", "=", f.accountId);
      if (f.guestId !== undefined) q = q.where("guest_id", "=", f.guestId);
      if (f.locationId !== undefined) q = q.where("location_id", "=", f.locationId);
      if (f.automationId !== undefined) q = q.where("automation_id", "=", f.automationId);
      if (f.status !== undefined) q = q.where("status", "=", f.status);
      if (f.kind !== undefined) q = q.where("kind", "=", f.kind);
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy("id")
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(row), total: Number(count.n) };
    },

    async attemptsOf(db: DB, ids: number[]): Promise<MessageAttemptRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("message_attempts").selectAll().where("message_id", "in", ids).orderBy("id").execute();
      return rows.map((a) => ({ ...a, attempted_ms: Number(a.attempted_ms), duration_ms: Number(a.duration_ms) }));
    },

    /**
     * The absence run of an automation at a location for local day `today`: one message for every
     * guest who opted in and whose last visit there was on `lastVisit` (absence_days before). The
     * dedupe key names that last visit, so a guest gets one per absence whoever runs it.
     */
    async enqueueAbsence(db: DB, a: ScheduledAutomation, locationId: number, lastVisit: string, at: string, nowMs: number): Promise<number> {
      const r = await sql`insert into messages (account_id, kind, channel, automation_id, guest_id, location_id, dedupe_key, trigger_at, created_ms, next_attempt_ms)
        select ${a.account_id}, 'automation', ${a.channel}, ${a.id}, g.id, ${locationId},
          ${`a${a.id}:g`} || cast(g.id as varchar(12)) || ${`:absence:${lastVisit}`}, ${at}, cast(${nowMs} as bigint), cast(${nowMs} as bigint)
        from daily_visitors v join guests g on g.id = v.guest_id
        where v.location_id = ${locationId} and v.day = ${lastVisit} and g.account_id = ${a.account_id} and g.marketing_opt_in = 1
          and not exists (select 1 from daily_visitors w where w.guest_id = v.guest_id and w.location_id = ${locationId} and w.day > ${lastVisit})
        on conflict (dedupe_key) do nothing`.execute(db);
      return queuedMessages(db, r.numAffectedRows);
    },

    /**
     * The birthday run of an automation at a location: one message for every guest of the location
     * who opted in and was born on `monthDays` ("MM-DD"; 02-29 is remembered on 02-28 of other
     * years). Once a year per automation and guest, whichever location runs first.
     */
    async enqueueBirthday(db: DB, a: ScheduledAutomation, locationId: number, monthDays: string[], year: string, at: string, nowMs: number): Promise<number> {
      const r = await sql`insert into messages (account_id, kind, channel, automation_id, guest_id, location_id, dedupe_key, trigger_at, created_ms, next_attempt_ms)
        select ${a.account_id}, 'automation', ${a.channel}, ${a.id}, g.id, ${locationId},
          ${`a${a.id}:g`} || cast(g.id as varchar(12)) || ${`:birthday:${year}`}, ${at}, cast(${nowMs} as bigint), cast(${nowMs} as bigint)
        from guest_locations gl join guests g on g.id = gl.guest_id
        where gl.location_id = ${locationId} and g.account_id = ${a.account_id} and g.marketing_opt_in = 1
          and substr(g.birthdate, 6, 5) in (${sql.join(monthDays)})
        on conflict (dedupe_key) do nothing`.execute(db);
      return queuedMessages(db, r.numAffectedRows);
    },

    /** Whether a message with this dedupe key exists (a schedule asks before it does the work of making one). */
    async exists(db: DB, dedupeKey: string): Promise<boolean> {
      const r = await db.selectFrom("messages").select("id").where("dedupe_key", "=", dedupeKey).executeTakeFirst();
      return r !== undefined;
    },

  };
}

/** Rows an insert queued; the message worker looks once they are committed. */
function queuedMessages(db: DB, affected: bigint | undefined): number {
  const n = Number(affected ?? 0);
  if (n > 0) outboxWritten(db, "messages");
  return n;
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
