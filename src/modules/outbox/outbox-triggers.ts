/**
 * What other code calls when something happens that a guest automation may answer (a guest's first
 * login at a location, the end of a session): `enqueueAutomations` queues one message per active
 * automation of the account with that trigger at that location, in the caller's transaction, for
 * a guest who opted in to marketing, due after the automation's delay. The message's text is
 * written when it is first attempted (the sender then checks consent, cap and the address again).
 *
 * The dedupe key (unique) makes a trigger queue at most one message per automation and event
 * (the first login at a location, a session), whoever calls twice.
 */
import { sql } from "kysely";
import type { DB } from "../../db/database.js";
import { outboxWritten } from "../../db/outbox.js";
import { ReadCache } from "../../db/read-cache.js";

export const AUTOMATION_TRIGGERS = ["welcome", "visit-ended", "absence", "birthday"] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];

/** Triggers queued by an event (the others by the schedule, message-schedule.ts). */
export type EventTrigger = "welcome" | "visit-ended";

/**
 * Whether an account has a live automation with each trigger, per database. automations is a
 * catalogue table (catalogue.ts): on SQLite this is dropped when this process writes one or another
 * connection commits, on PostgreSQL when any instance writes one; inside a transaction nothing is
 * cached.
 */
const triggersOf = new ReadCache<number, ReadonlySet<string>>(100_000, true);

/**
 * Whether the account may have an active automation with `trigger` (cached under `root`, the app's
 * database; read through `via`, the caller's transaction when it holds one). Asked on every login:
 * the insert it saves opens every index of messages even when it inserts nothing (62 µs of SQLite
 * in-process, 177 to 215 µs in the portal benchmark's logins).
 */
export async function mayHaveAutomations(root: DB, accountId: number, trigger: EventTrigger, via: DB = root): Promise<boolean> {
  const cached = triggersOf.get(root, accountId);
  if (cached !== undefined) return cached.has(trigger);
  const found = await triggersOf.load(root, accountId, async () => {
    const rows = await via
      .selectFrom("automations")
      .select("trigger")
      .distinct()
      .where("account_id", "=", accountId)
      .where("deleted", "=", 0)
      .where("active", "=", 1)
      .execute();
    return new Set(rows.map((r) => r.trigger));
  });
  return found?.has(trigger) ?? false;
}

export interface TriggerEvent {
  accountId: number;
  guestId: number;
  locationId: number;
  /** When it happened (UTC datetime): the login, the end of the session. */
  at: string;
  /** What makes this event one (the location of a first login, a session id), for the dedupe key. */
  key: string;
}

/**
 * Queues the automations of `trigger` for the event, in the caller's transaction (`trx`); skipped
 * without a query when `root` knows the account has none. Only for a guest whose latest marketing
 * choice is an opt-in (guests.marketing_opt_in, docs/guest-data.md). Returns how many were queued.
 */
export async function enqueueAutomations(root: DB, trx: DB, trigger: EventTrigger, e: TriggerEvent): Promise<number> {
  if (!(await mayHaveAutomations(root, e.accountId, trigger, trx))) return 0;
  const nowMs = Date.now();
  const suffix = `:g${e.guestId}:${trigger}:${e.key}`.slice(0, 140);
  const r = await sql`insert into messages (account_id, kind, channel, automation_id, guest_id, location_id, dedupe_key, trigger_at, created_ms, next_attempt_ms)
    select a.account_id, 'automation', a.channel, a.id, ${e.guestId}, ${e.locationId},
      'a' || cast(a.id as varchar(12)) || cast(${suffix} as varchar(140)), cast(${e.at} as varchar(19)),
      cast(${nowMs} as bigint), cast(${nowMs} as bigint) + a.delay_minutes * 60000
    from automations a
    where a.account_id = ${e.accountId} and a.deleted = 0 and a.active = 1 and a.trigger = ${trigger}
      and (a.location_ids = '' or a.location_ids like ${`%,${e.locationId},%`})
      and exists (select 1 from guests g where g.id = ${e.guestId} and g.marketing_opt_in = 1)
    on conflict (dedupe_key) do nothing`.execute(trx);
  const queued = Number(r.numAffectedRows ?? 0);
  if (queued > 0) outboxWritten(trx, "messages");
  return queued;
}
