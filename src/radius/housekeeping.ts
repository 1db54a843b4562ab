/**
 * What RADIUS leaves behind, cleaned up: portal credentials a day after they expired, sessions the
 * gateway never closed, and closed sessions RADIUS_SESSION_RETENTION_DAYS after they ended (by then
 * no gateway sends anything more for them; the guest's totals keep what they counted).
 *
 * A session is stale when its gateway missed three Interim-Updates in a row (no accounting for 3 x
 * RADIUS_INTERIM_INTERVAL, the interval every Access-Accept asks for), or RADIUS_STALE_SESSION_HOURS
 * when that is shorter: it lost power, the guest roamed away, a Stop was lost. It is closed as of
 * the last time it was heard of, with cause Stale-Session, so it stops counting as online at the
 * same moment GET /api/session-list stops listing it; what it counted stays counted. Should the
 * gateway speak of it again after all, accounting opens it again (radius.repository.ts).
 */
import type { Config } from "../config.js";
import { toDbDatetime } from "../db/time.js";
import { purgeAuditLog } from "../modules/audit/audit.service.js";
import { purgeExpiredSessions } from "../modules/console/console.service.js";
import type { RadiusCtx } from "./radius.repository.js";
import { STALE_SESSION_CAUSE } from "./radius-statements.js";
import { DAY_MS } from "../durations.js";

/** Used or expired credentials are kept a day for support questions, then deleted. */
const CREDENTIAL_RETENTION_MS = DAY_MS;

export interface HousekeepingDone {
  closedSessions: number;
  purgedSessions: number;
  purgedCredentials: number;
  /** Console sign-in sessions past their expiry (src/modules/console). */
  purgedConsoleSessions: number;
  /** Audit log entries past their account's audit retention (src/modules/audit). */
  purgedAuditEntries: number;
}

/** Missed Interim-Updates after which a session is stale (as GET /api/session-list stops listing it). */
export const STALE_INTERVALS = 3;

/** How long a session may go without accounting before it is closed, in milliseconds. */
export function staleAfterMs(config: Readonly<Config>): number {
  return Math.min(STALE_INTERVALS * config.radius.interimInterval * 1000, config.radius.staleSessionHours * 3_600_000);
}

/** Closes the stale sessions; returns how many. Cheap (the open sessions' index): run every minute. */
export async function closeStaleSessions({ db, radius }: RadiusCtx, config: Readonly<Config>, now = new Date()): Promise<number> {
  return radius.closeSilentSessions(db, toDbDatetime(new Date(now.getTime() - staleAfterMs(config))), STALE_SESSION_CAUSE);
}

export async function runDatabaseHousekeeping(ctx: RadiusCtx, config: Readonly<Config>, now = new Date()): Promise<HousekeepingDone> {
  const { db, radius } = ctx;
  const before = (ms: number) => toDbDatetime(new Date(now.getTime() - ms));
  const purgedCredentials = await radius.purgeCredentials(db, before(CREDENTIAL_RETENTION_MS));
  const closedSessions = await closeStaleSessions(ctx, config, now);
  const purgedSessions = await radius.purgeClosedSessions(db, before(config.radius.sessionRetentionDays * DAY_MS));
  const purgedConsoleSessions = await purgeExpiredSessions(ctx, toDbDatetime(now));
  const purgedAuditEntries = await purgeAuditLog(ctx, now);
  return { closedSessions, purgedSessions, purgedCredentials, purgedConsoleSessions, purgedAuditEntries };
}
