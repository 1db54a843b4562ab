/**
 * Signing in to the console: owners with their e-mail and password (`guestwifi account create
 * --password-stdin`, `account set-password`), sub-users with the e-mail and password given to
 * create-sub-user. A session is a random token in an HttpOnly cookie; the database keeps only its
 * SHA-256, with a CSRF token that every write must carry. Sessions end after SESSION_IDLE_MS without
 * use, SESSION_MAX_MS after sign-in at the latest, or at sign-out (on every instance at once: each
 * request reads the session row).
 */
import { createHash, randomBytes } from "node:crypto";
import { fromDbDatetime, nowDatetime, toDbDatetime } from "../../db/time.js";
import type { Caller } from "../../http/caller.js";
import { verifyOwnerPassword } from "../accounts/accounts.service.js";
import type { Ctx } from "../context.js";
import { scopeOf } from "../accounts/scope.js";
import { verifySubUserPassword } from "../subusers/subusers.service.js";

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most this often per session (not on every request). */
const TOUCH_EVERY_MS = 5 * 60_000;

export interface ConsoleUser {
  caller: Caller;
  email: string;
  role: "owner" | "sub-user";
  csrfToken: string;
  /** The session's id (hash of its token), to end it. */
  sessionId: string;
}

function sessionId(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Who has this e-mail and password: the owner of an account, else a sub-user; undefined for an
 * unknown e-mail or a wrong password alike. Both are always checked (a key derived for each), so the
 * time taken does not tell which e-mails exist.
 */
export async function checkCredentials(
  ctx: Ctx,
  email: string,
  password: string,
): Promise<{ accountId: number; subUserId: number | null } | undefined> {
  const given = email.trim();
  const [owner, sub] = await Promise.all([verifyOwnerPassword(ctx, given, password), verifySubUserPassword(ctx, given, password)]);
  if (owner) return { accountId: owner.accountId, subUserId: null };
  if (sub) return { accountId: sub.accountId, subUserId: sub.subUserId };
  return undefined;
}

/** A new session; returns the cookie's token (never stored) and the CSRF token. */
export async function startSession(ctx: Ctx, who: { accountId: number; subUserId: number | null }, now = Date.now()) {
  const token = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(24).toString("base64url");
  const at = toDbDatetime(new Date(now));
  await ctx.repos.console.insertSession(ctx.db, {
    id: sessionId(token),
    account_id: who.accountId,
    sub_user_id: who.subUserId,
    csrf_token: csrfToken,
    created_at: at,
    last_seen_at: at,
    expires_at: toDbDatetime(new Date(now + SESSION_IDLE_MS)),
  });
  return { token, csrfToken };
}

/** The user behind a session token, or undefined when it is unknown, expired or its sub-user is gone. */
export async function sessionUser(ctx: Ctx, token: string, now = Date.now()): Promise<ConsoleUser | undefined> {
  if (token.length < 20 || token.length > 100) return undefined;
  const id = sessionId(token);
  const row = await ctx.repos.console.findSession(ctx.db, id);
  if (!row) return undefined;
  const expired = fromDbDatetime(row.expires_at).getTime() <= now || fromDbDatetime(row.created_at).getTime() + SESSION_MAX_MS <= now;
  // A deleted or disabled sub-user's sessions end at its next request, whichever instance gets it.
  const orphaned = row.sub_user_id !== null && (row.sub_user_email === null || row.sub_user_disabled_at !== null);
  if (expired || orphaned) {
    await ctx.repos.console.deleteSession(ctx.db, id);
    return undefined;
  }
  if (now - fromDbDatetime(row.last_seen_at).getTime() > TOUCH_EVERY_MS) {
    await ctx.repos.console.touchSession(ctx.db, id, toDbDatetime(new Date(now)), toDbDatetime(new Date(now + SESSION_IDLE_MS)));
  }
  const sub = row.sub_user_id !== null;
  return {
    caller: {
      accountId: row.account_id,
      subUserId: row.sub_user_id,
      readonly: sub && row.sub_user_readonly === 1,
      locationScope: sub ? scopeOf(row.sub_user_location_scope) : null,
    },
    email: sub ? (row.sub_user_email ?? "") : row.account_email,
    role: sub ? "sub-user" : "owner",
    csrfToken: row.csrf_token,
    sessionId: id,
  };
}

export async function endSession(ctx: Ctx, id: string): Promise<void> {
  await ctx.repos.console.deleteSession(ctx.db, id);
}

/** Ends every session of the owner or sub-user (their password changed). */
export async function endSessionsOf(ctx: Ctx, accountId: number, subUserId: number | null): Promise<void> {
  await ctx.repos.console.deleteSessionsOf(ctx.db, accountId, subUserId);
}

/** Housekeeping: sessions past their expiry. */
export async function purgeExpiredSessions(ctx: Ctx, now = nowDatetime()): Promise<number> {
  return ctx.repos.console.deleteExpired(ctx.db, now);
}
