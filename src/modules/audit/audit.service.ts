/**
 * The audit log: one entry per write through the API (and the console, which uses the API's
 * routes), the console's own writes and the command line's. The one place that decides what an
 * entry holds: the fields given, never a secret's value (a field whose name says password, secret,
 * token or key is recorded as "(changed)"), long values by their length only.
 */
import { toDbDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import type { AuditRow } from "./audit.repository.js";

export type ActorType = "owner" | "sub-user" | "cli";
export type Via = "api" | "console" | "cli";

export interface AuditEntry {
  accountId: number;
  actorType: ActorType;
  subUserId: number | null;
  via: Via;
  action: string;
  objects: Record<string, number[]>;
  /** The parameters given, as given; sanitised here. */
  fields: Record<string, unknown>;
  address: string;
  at?: Date;
}

const SECRET = /(pass|secret|token|(^|_)key$|private|credential|identifier)/i;
const LONGEST_VALUE = 200;

/** What an entry keeps of the fields given. */
export function auditFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name === "identifier" || value === undefined) continue;
    if (SECRET.test(name)) out[name] = "(changed)";
    else if (typeof value === "string" && value.length > LONGEST_VALUE) out[name] = `(${value.length} characters)`;
    else if (typeof value === "object" && value !== null) {
      const text = JSON.stringify(value);
      out[name] = text.length > LONGEST_VALUE ? `(${text.length} characters)` : value;
    } else out[name] = value;
  }
  return out;
}

export async function recordAudit(ctx: Ctx, e: AuditEntry): Promise<void> {
  const repo = ctx.repos.audit;
  const actor = e.actorType === "cli" ? "command line" : await repo.actorOf(ctx.db, e.accountId, e.subUserId);
  const objects = Object.fromEntries(Object.entries(e.objects).filter(([, ids]) => ids.length > 0));
  const keys = Object.entries(objects).flatMap(([param, ids]) => ids.map((id) => `${param}:${id}`));
  await repo.insert(ctx.db, {
    account_id: e.accountId,
    at: toDbDatetime(e.at ?? new Date()),
    actor_type: e.actorType,
    sub_user_id: e.subUserId,
    actor,
    via: e.via,
    action: e.action.slice(0, 64),
    objects: JSON.stringify(objects),
    object_keys: keys.length === 0 ? "" : `,${keys.join(",")},`,
    changes: JSON.stringify(auditFields(e.fields)),
    address: e.address.slice(0, 45),
  });
}

export function toAuditRecord(row: AuditRow) {
  return {
    id: row.id,
    at: row.at,
    actor_type: row.actor_type,
    actor: row.actor,
    sub_user_id: row.sub_user_id,
    via: row.via,
    action: row.action,
    objects: JSON.parse(row.objects) as Record<string, number[]>,
    changes: JSON.parse(row.changes) as Record<string, unknown>,
    address: row.address,
  };
}

/** Deletes what each account's audit retention no longer keeps; returns how many entries. */
export async function purgeAuditLog(ctx: Ctx, now: Date = new Date()): Promise<number> {
  let purged = 0;
  for (const days of await ctx.repos.audit.retentionPeriods(ctx.db)) {
    purged += await ctx.repos.audit.purge(ctx.db, days, toDbDatetime(new Date(now.getTime() - days * 86_400_000)));
  }
  return purged;
}

/** An entry for a write by the command line (guestwifi account create, guest erase, demo). */
export function recordCliAudit(ctx: Ctx, accountId: number, action: string, objects: Record<string, number[]>, fields: Record<string, unknown>): Promise<void> {
  return recordAudit(ctx, { accountId, actorType: "cli", subUserId: null, via: "cli", action, objects, fields, address: "" });
}
