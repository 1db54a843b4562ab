import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from "../../db/schema.js";
import { claimLease, finishLease } from "../../db/outbox.js";
import { type RowLock, withRowLock } from "../../db/transaction.js";

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** A delivery ready to be sent, with its webhook's target and secret. */
export interface DueDelivery {
  id: number;
  webhook_id: number;
  payload: string;
  attempts: number;
  created_ms: number;
  url: string;
  secret: string;
}

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
     * The oldest pending delivery of each webhook (only it may be sent: order per webhook), when it
     * is due and nobody holds it.
     */
    async dueHeads(db: DB, nowMs: number, limit: number): Promise<DueDelivery[]> {
      const heads = db
        .selectFrom("webhook_deliveries")
        .select((eb) => eb.fn.min("id").as("id"))
        .where("status", "=", "pending")
        .groupBy("webhook_id");
      const rows = await db
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhooks as w", "w.id", "d.webhook_id")
        .select(["d.id", "d.webhook_id", "d.payload", "d.attempts", "d.created_ms", "w.url", "w.secret"])
        .where("d.id", "in", heads)
        .where("d.next_attempt_ms", "<=", nowMs)
        .where("d.lease_until_ms", "<", nowMs)
        .orderBy("d.id")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, attempts: Number(r.attempts), created_ms: Number(r.created_ms) }));
    },

    /** Takes the delivery for this instance until `leaseUntil` (see claimLease). */
    claim(db: DB, id: number, nowMs: number, leaseUntil: number): Promise<boolean> {
      return claimLease(db, "webhook_deliveries", id, nowMs, leaseUntil);
    },

    /** Records an attempt's outcome, if this instance still holds the delivery. */
    finishAttempt(
      db: DB,
      id: number,
      leaseUntil: number,
      attempt: Omit<AttemptRow, "id" | "delivery_id">,
      next: { status: "delivered" | "failed" | "pending"; nextAttemptMs?: number },
    ): Promise<boolean> {
      return finishLease(db, "webhook_deliveries", id, leaseUntil, attempt, next);
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
