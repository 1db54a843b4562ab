/**
 * Which errors mean "the database is not there right now" (stopped, restarting, unreachable, not
 * answering, busy) rather than "this request is wrong": the API answers those with 503, RADIUS
 * stays silent so that the NAS retries.
 */

/** PostgreSQL: admin/crash shutdown, cannot connect now, statement timeout, too many connections. */
const PG_CODES = new Set(["57P01", "57P02", "57P03", "57014", "53300"]);
/** Node's socket errors on the way to the server. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
/** pg's own words for a connection that died, never came, or stopped answering. */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client was closed and is not queryable|Client has encountered a connection error|timeout expired)/;

const UNAVAILABLE = Symbol("database unavailable");

function fields(err: unknown): { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } {
  return err && typeof err === "object" ? err : {};
}

/** A connection-level fault as pg reports it (socket error, dead or silent connection). */
function connectionFault(err: unknown, depth = 0): boolean {
  if (depth > 3) return false;
  const { code, message, cause, errors } = fields(err);
  if (typeof code === "string" && SOCKET_CODES.has(code)) return true;
  if (typeof message === "string" && PG_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => connectionFault(e, depth + 1))) return true;
  return cause !== undefined && connectionFault(cause, depth + 1);
}

/**
 * Marks an error that came out of the PostgreSQL pool or a connection when it is a connection
 * fault. Socket errors are recognised only there: the same codes from an OAuth provider or SMS
 * gateway are not the database's.
 */
export function markConnectionFault<E>(err: E): E {
  if (err && typeof err === "object" && connectionFault(err)) (err as Record<symbol, boolean>)[UNAVAILABLE] = true;
  return err;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  if ((err as Record<symbol, unknown>)[UNAVAILABLE]) return true;
  const { code } = fields(err);
  if (typeof code !== "string") return false;
  // PostgreSQL's connection-exception class (08xxx) and the codes above.
  if (PG_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  // SQLite: another connection held the write lock longer than busy_timeout.
  return code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_");
}
