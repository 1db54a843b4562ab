/**
 * What RADIUS leaves behind, cleaned up: portal credentials a day after they expired, sessions the
 * gateway never closed (no Stop and no accounting for RADIUS_STALE_SESSION_HOURS: it lost power,
 * or a Start was never followed up), and closed sessions RADIUS_SESSION_RETENTION_DAYS after they
 * ended (by then no gateway sends anything more for them; the guest's totals keep what they counted).
 */
import type { Config } from "../config.js";
import { toDbDatetime } from "../db/time.js";
import { purgeExpiredSessions } from "../modules/console/console.service.js";
import type { RadiusCtx } from "./radius.repository.js";

/** Used or expired credentials are kept a day for support questions, then deleted. */
const CREDENTIAL_RETENTION_MS = 86_400_000;
export const STALE_SESSION_CAUSE = "Stale-Session";

export interface HousekeepingDone {
  closedSessions: number;
  purgedSessions: number;
  purgedCredentials: number;
  /** Console sign-in sessions past their expiry (src/modules/console). */
  purgedConsoleSessions: number;
}

export async function runDatabaseHousekeeping(ctx: RadiusCtx, config: Readonly<Config>, now = new Date()): Promise<HousekeepingDone> {
  const { db, radius } = ctx;
  const before = (ms: number) => toDbDatetime(new Date(now.getTime() - ms));
  const purgedCredentials = await radius.purgeCredentials(db, before(CREDENTIAL_RETENTION_MS));
  const closedSessions = await radius.closeSilentSessions(db, before(config.radius.staleSessionHours * 3_600_000), STALE_SESSION_CAUSE);
  const purgedSessions = await radius.purgeClosedSessions(db, before(config.radius.sessionRetentionDays * 86_400_000));
  const purgedConsoleSessions = await purgeExpiredSessions(ctx, toDbDatetime(now));
  return { closedSessions, purgedSessions, purgedCredentials, purgedConsoleSessions };
}
