import { type RawBuilder, type Selectable, sql } from "kysely";
import type { DB } from "../../db/database.js";
import { dialectOf } from "../../db/dialect.js";
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from "../../db/schema.js";
import { type AttemptLine, type LeaseOutcome, finishLease, finishLeasesAs, skipFlushWait } from "../../db/outbox.js";
import { type RowLock, transaction, withRowLock } from "../../db/transaction.js";

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** Where a run starts: a webhook's first delivery in sending order. */
export interface RunHead {
  id: number;
  webhook_id: number;
  /** The transaction that queued it (PostgreSQL; 0 on SQLite), as read. */
  tx: number | string;
}

/** A delivery ready to be sent, with its webhook's target and secret. */
export interface DueDelivery extends RunHead {
  /** It may go now: no transaction that could still queue a delivery before it is running (see `settled`). */
  settled: boolean;
  /** It goes although such a transaction still runs: it waited WEBHOOK_ORDER_WAIT_MS (see `settled`). */
  overdue: boolean;
  payload: string;
  attempts: number;
  created_ms: number;
  url: string;
  secret: string;
}

/** A delivery of a run this instance holds (see claimRun); `attempts` as before this one. */
export interface RunDelivery {
  id: number;
  payload: string;
  attempts: number;
  created_ms: number;
}

/** An attempt of a run and where its delivery goes next. */
export interface RunOutcome {
  id: number;
  attempt: AttemptLine;
  next: LeaseOutcome;
}

/**
 * Whether a delivery may be sent now, as a column of the query reading it: 1 when it may, 0 when it
 * waits, 2 when it goes after waiting too long. Deliveries go in (tx, id) order: tx is the
 * PostgreSQL transaction that queued it. Any delivery still to come will be queued by a transaction
 * running now or later, and so with a tx at least the oldest running one's (the snapshot's xmin): a
 * delivery whose tx is below it has its place for good, and sending it can never overtake one not
 * yet visible. A delivery queued at or before `settleBefore` (ms) goes anyway (2), so that a long
 * transaction elsewhere on the server holds deliveries back by WEBHOOK_ORDER_WAIT_MS at most.
 * Always 1 on SQLite, whose single writer commits in id order.
 */
function settled(db: DB, settleBefore: number): RawBuilder<number> {
  if (dialectOf(db) !== "postgres") return sql<number>`1`;
  return sql<number>`(case when d.tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint then 1 when d.created_ms <= ${settleBefore} then 2 else 0 end)`;
}

/** claimRun lost a delivery to another instance between its read and its update. */
class RunTaken extends Error {}

export function createWebhookRepository() {
  return {
    async findOwned(db: DB, accountId: number, ids: number[], lock?: RowLock): Promise<WebhookRow[]> {
      if (ids.length === 0) return [];
      const q = db.selectFrom("webhooks").selectAll().where("account_id", "=", accountId).where("deleted", "=", 0).where("id", "in", ids).orderBy("id");
      return withRowLock(db, q, lock).execute();
    },

    async listByAccount(db: DB, accountId: number): Promise<WebhookRow[]> {
      return db.selectFrom("webhooks").selectAll().where("account_id", "=", accountId).where("deleted", "=", 0).orderBy("id").execute();
    },

    async insert(db: DB, row: Omit<WebhookRow, "id" | "deleted">): Promise<number> {
      const r = await db.insertInto("webhooks").values(row).returning("id").executeTakeFirstOrThrow();
      return r.id;
    },

    async update(db: DB, id: number, changes: Partial<Pick<WebhookRow, "url" | "events" | "location_ids" | "last_modified">>): Promise<void> {
      await db.updateTable("webhooks").set(changes).where("id", "=", id).execute();
    },

    /** Deletes the webhook; its pending deliveries are marked failed (nothing more is sent). */
    async softDelete(db: DB, id: number, now: string, nowMs: number): Promise<void> {
      await db.updateTable("webhooks").set({ deleted: 1, last_modified: now }).where("id", "=", id).execute();
      await db
        .updateTable("webhook_deliveries")
        .set({ status: "failed", last_error: "webhook deleted", finished_ms: nowMs })
        .where("webhook_id", "=", id)
        .where("status", "=", "pending")
        .execute();
    },

    async listDeliveries(db: DB, webhookId: number, q: { status?: string; beforeId?: number; limit: number }): Promise<DeliveryRow[]> {
      let query = db.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", webhookId);
      if (q.status) query = query.where("status", "=", q.status);
      if (q.beforeId) query = query.where("id", "<", q.beforeId);
      return query.orderBy("id", "desc").limit(q.limit).execute();
    },

    async listAttempts(db: DB, deliveryIds: number[]): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "in", deliveryIds).orderBy("id").execute();
    },

    /**
     * The first pending delivery of each webhook in sending order (only it may be sent: order per
     * webhook), when it is due and nobody holds it; `settled` when it may go now (see `settled`).
     */
    async dueHeads(db: DB, nowMs: number, limit: number, settleBefore: number): Promise<DueDelivery[]> {
      const postgres = dialectOf(db) === "postgres";
      const heads = postgres
        ? sql<number>`(select distinct on (webhook_id) id from webhook_deliveries where status = 'pending' order by webhook_id, tx, id)`
        : db.selectFrom("webhook_deliveries").select((eb) => eb.fn.min("id").as("id")).where("status", "=", "pending").groupBy("webhook_id");
      const rows = await db
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhooks as w", "w.id", "d.webhook_id")
        .select(["d.id", "d.webhook_id", "d.tx", "d.payload", "d.attempts", "d.created_ms", "w.url", "w.secret", settled(db, settleBefore).as("settled")])
        .where("d.id", "in", heads)
        .where("d.next_attempt_ms", "<=", nowMs)
        .where("d.lease_until_ms", "<", nowMs)
        .orderBy("d.tx")
        .orderBy("d.id")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, attempts: Number(r.attempts), created_ms: Number(r.created_ms), settled: Number(r.settled) > 0, overdue: Number(r.settled) === 2 }));
    },

    /**
     * Takes `head` (a due head, see dueHeads) and up to `limit - 1` pending deliveries of its webhook
     * after it, in order, for this instance until `leaseUntil` (each attempt counted, as claimLease
     * does): the run a worker sends one after the other. The run stops before the first delivery
     * someone holds, that waits on a backoff or that is not settled; nothing is taken unless it starts
     * at the head, nor when another instance took one of them between the read and the update (one
     * transaction).
     */
    async claimRun(db: DB, head: RunHead, limit: number, nowMs: number, leaseUntil: number, settleBefore: number): Promise<RunDelivery[]> {
      try {
        return await transaction(db, async (trx) => {
          await skipFlushWait(trx);
          const rows = await trx
            .selectFrom("webhook_deliveries as d")
            .select(["d.id", "d.payload", "d.attempts", "d.created_ms", "d.lease_until_ms", "d.next_attempt_ms", settled(trx, settleBefore).as("settled")])
            .where("d.webhook_id", "=", head.webhook_id)
            .where("d.status", "=", "pending")
            .where(sql<boolean>`(d.tx, d.id) >= (${head.tx}, ${head.id})`)
            .orderBy("d.tx")
            .orderBy("d.id")
            .limit(limit)
            .execute();
          const run: RunDelivery[] = [];
          for (const r of rows) {
            if (Number(r.settled) === 0 || Number(r.lease_until_ms) >= nowMs || Number(r.next_attempt_ms) > nowMs) break;
            run.push({ id: r.id, payload: r.payload, attempts: Number(r.attempts), created_ms: Number(r.created_ms) });
          }
          if (run.length === 0 || run[0].id !== head.id) return [];
          const taken = await trx
            .updateTable("webhook_deliveries")
            .set((eb) => ({ lease_until_ms: leaseUntil, attempts: eb("attempts", "+", 1) }))
            .where("id", "in", run.map((d) => d.id))
            .where("status", "=", "pending")
            .where("lease_until_ms", "<", nowMs)
            .where("next_attempt_ms", "<=", nowMs)
            .executeTakeFirst();
          if (Number(taken.numUpdatedRows) !== run.length) throw new RunTaken();
          return run;
        });
      } catch (err) {
        if (err instanceof RunTaken) return [];
        throw err;
      }
    },

    /**
     * Records a run's attempts (each only while this instance still holds its delivery) and gives
     * back the deliveries it did not send (`unsent`: an attempt failed before them, or the lease was
     * running out), uncounting their attempt: one transaction for the run.
     */
    async finishRun(db: DB, leaseUntil: number, outcomes: RunOutcome[], unsent: number[]): Promise<void> {
      await transaction(db, async (trx) => {
        await skipFlushWait(trx);
        const delivered = outcomes.filter((o) => o.next.status === "delivered");
        await finishLeasesAs(trx, "webhook_deliveries", leaseUntil, "delivered", delivered);
        for (const o of outcomes) if (o.next.status !== "delivered") await finishLease(trx, "webhook_deliveries", o.id, leaseUntil, o.attempt, o.next);
        if (unsent.length === 0) return;
        await trx
          .updateTable("webhook_deliveries")
          .set((eb) => ({ lease_until_ms: 0, attempts: eb("attempts", "-", 1) }))
          .where("id", "in", unsent)
          .where("status", "=", "pending")
          .where("lease_until_ms", "=", leaseUntil)
          .execute();
      });
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
