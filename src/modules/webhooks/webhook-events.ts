/**
 * What other code calls to announce an event to an account's webhooks: `enqueueEvent` writes one
 * outbox row (webhook_deliveries) per subscribed webhook, in the caller's transaction, so an event
 * exists exactly when the change that caused it committed. The delivery worker
 * (webhook-delivery.ts) sends them.
 *
 * Marketing: `guest.login` is the marketing event. Its personal fields (e-mail, name, phone, MAC)
 * are sent only for a login with a recorded marketing opt-in (`loginEventData` in guests/login-input.ts); other logins are
 * sent with ids only. session.start, session.stop, guest.erased and guest.consent carry ids and counters only.
 */
import { type RawBuilder, sql } from "kysely";
import type { DB } from "../../db/database.js";
import { outboxWritten } from "../../db/outbox.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import { ReadCache } from "../../db/read-cache.js";

export const WEBHOOK_EVENTS = ["guest.login", "session.start", "session.stop", "guest.erased", "guest.consent"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Events that carry personal data for marketing: sent with personal fields only for guests who opted in. */
export const MARKETING_EVENTS: ReadonlySet<WebhookEvent> = new Set(["guest.login"]);

/**
 * Whether an account has any live webhook, per database (the map inside is keyed by the database,
 * so two apps share nothing). On PostgreSQL webhooks is announced like a catalogue table, so every
 * instance drops this when any writes a webhook; inside a transaction nothing is cached.
 */
const subscribed = new ReadCache<number, boolean>(100_000, true);

/**
 * Cached under `root` (the app's database); a miss is read through `via` (the caller's transaction
 * when it holds one: a second connection while holding one could exhaust the pool).
 */
async function accountHasWebhooks(root: DB, via: DB, accountId: number): Promise<boolean> {
  const cached = subscribed.get(root, accountId);
  if (cached !== undefined) return cached;
  const found = await subscribed.load(root, accountId, async () => {
    const row = await via.selectFrom("webhooks").select("id").where("account_id", "=", accountId).where("deleted", "=", 0).limit(1).executeTakeFirst();
    return row !== undefined;
  });
  return found ?? false;
}

/**
 * Whether the account may have a webhook (false only when none is live): PostgreSQL logins leave
 * out their webhook CTE, accounting skips the outbox insert. Cached with the catalogue rows (on
 * SQLite too, where only catalogue writes, or another connection's commit, drop it).
 * `via`: the transaction the caller holds, if any (the look-up then runs in it).
 */
export async function mayHaveWebhooks(db: DB, accountId: number, via: DB = db): Promise<boolean> {
  return accountHasWebhooks(db, via, accountId);
}

export function envelope(type: WebhookEvent, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * A list column (",a,b,") holds `item` (given as ",a,"). The pattern is made in SQL, not bound whole:
 * SQLite prepares a statement again at every run whose LIKE compares a text column with a bound
 * parameter (the parameter could allow an index), and that cost the outbox insert 10 us of its
 * 11 at each login and each new session.
 */
const holds = (column: RawBuilder<unknown>, item: unknown) => sql`${column} like '%' || ${item} || '%'`;

const ENQUEUE_KEYS = ["type", "payload", "nowMs", "accountId", "typeItem"] as const;
const outboxInsert = (p: Record<(typeof ENQUEUE_KEYS)[number], never>) =>
  sql`insert into webhook_deliveries (webhook_id, account_id, event_type, payload, created_ms, next_attempt_ms)
    select w.id, w.account_id, ${p.type}, ${p.payload}, ${p.nowMs}, ${p.nowMs}
    from webhooks w where w.account_id = ${p.accountId} and w.deleted = 0 and ${holds(sql.ref("w.events"), p.typeItem)}`;

/**
 * The outbox insert, built once per database and then only bound (accounting queues a session.start
 * per new session: compiling a Kysely query for each cost more than running it). Two texts: for an
 * event of a location (webhooks of that location or of all), and for one of none (every subscriber).
 */
const ENQUEUE_AT_LOCATION = new PreparedQuery([...ENQUEUE_KEYS, "locationItem"], (db, p) => ({
  compile: () => sql`${outboxInsert(p)} and (w.location_ids = '' or ${holds(sql.ref("w.location_ids"), p.locationItem)})`.compile(db),
}));
const ENQUEUE_ANYWHERE = new PreparedQuery(ENQUEUE_KEYS, (db, p) => ({ compile: () => outboxInsert(p).compile(db) }));

/**
 * Queues `type` for every webhook of the account that subscribes to it (and, when `locationId` is
 * given, to that location: an event without one, such as guest.erased, goes to every subscriber).
 * Runs in the caller's transaction (pass the transaction as `db`).
 */
export async function enqueueEvent(
  db: DB,
  accountId: number,
  type: WebhookEvent,
  data: Record<string, unknown>,
  locationId?: number | null,
  at: Date = new Date(),
): Promise<number> {
  // The outbox's clock is the wall clock (retries count from when the event was queued); `at` is the event's time.
  const nowMs = Date.now();
  const values = { type, payload: envelope(type, at, data), nowMs, accountId, typeItem: `,${type},` };
  const queued =
    locationId == null ? await ENQUEUE_ANYWHERE.run(db, values) : await ENQUEUE_AT_LOCATION.run(db, { ...values, locationItem: `,${locationId},` });
  if (queued > 0) outboxWritten(db, "webhook_deliveries");
  return queued;
}

/** The values enqueueEventCte binds, by name (a prepared statement binds them to its markers). */
export const EVENT_CTE_KEYS = ["eventAccountId", "eventData", "eventTimestamp", "eventNowMs", "eventLocation"];

/** enqueueEventCte's values for an event of `accountId` at `locationId` with `data`, queued now. */
export function eventCteValues(accountId: number, data: Record<string, unknown>, locationId: number, at: Date): Record<string, unknown> {
  // The outbox's clock is the wall clock (retries count from when the event was queued); `at` is the event's time.
  const nowMs = Date.now();
  return {
    eventAccountId: accountId,
    eventData: JSON.stringify(data),
    eventTimestamp: at.toISOString(),
    eventNowMs: nowMs,
    eventLocation: `%,${locationId},%`,
  };
}

/**
 * The same for a PostgreSQL statement of CTEs: a CTE named `wh` that queues `type` with the event's
 * data merged with `ids` (SQL expressions of the statement, such as `g.id`) from `from` (its CTE
 * names), for the webhooks subscribed to the event's location. `v`: the values of eventCteValues,
 * or a prepared statement's markers for them (EVENT_CTE_KEYS).
 */
export function enqueueEventCte(type: WebhookEvent, ids: Record<string, RawBuilder<unknown>>, from: string[], v: Record<string, unknown>): RawBuilder<unknown> {
  const idPairs = Object.entries(ids).flatMap(([k, id]) => [sql`${k}::text`, id]);
  const payload = sql`jsonb_build_object('type', ${type}::text, 'timestamp', ${v.eventTimestamp}::text,
    'data', ${v.eventData}::jsonb || jsonb_build_object(${sql.join(idPairs)}))::text`;
  return sql`, wh as (
      insert into webhook_deliveries (webhook_id, account_id, event_type, payload, created_ms, next_attempt_ms)
      select w.id, w.account_id, ${type}::varchar, ${payload}, ${v.eventNowMs}::bigint, ${v.eventNowMs}::bigint
      from webhooks w, ${sql.join(from.map((f) => sql.id(f)))}
      where w.account_id = ${v.eventAccountId}::integer and w.deleted = 0 and w.events like ${`%,${type},%`}
        and (w.location_ids = '' or w.location_ids like ${v.eventLocation}::varchar)
    )`;
}

/**
 * enqueueEvent in the transaction `trx`, skipped without a query when `root` (the app's database,
 * whose cache survives between transactions) knows the account has no webhook.
 */
export async function enqueueEventIfSubscribed(
  root: DB,
  trx: DB,
  accountId: number,
  type: WebhookEvent,
  data: Record<string, unknown>,
  locationId?: number | null,
  at: Date = new Date(),
): Promise<void> {
  if (!(await mayHaveWebhooks(root, accountId, trx))) return;
  await enqueueEvent(trx, accountId, type, data, locationId, at);
}
