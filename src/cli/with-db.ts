/** What the guestwifi commands share: the configured database, opened and closed around one task. */
import { existsSync } from "node:fs";
import { type Config, loadConfig } from "../config.js";
import { createDatabase } from "../db/database.js";
import { isMigrated, migrateToLatest } from "../db/migrator.js";
import { type Ctx, createRepositories } from "../modules/context.js";

/** Loose on purpose: the account's owner reads the address back; it only has to look like one. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

export interface WithDbOptions {
  /** Bring the schema up to date first (default). */
  migrate?: boolean;
  /**
   * Whether the command may start a new database (migrate, account create, demo). The others work
   * on an existing one and refuse, creating nothing, when DATABASE_URL names none: a mistyped path
   * or a command run with another configuration must not answer from an empty database.
   */
  create?: boolean;
}

/** The command was pointed at a database that does not exist (exit code 1, one sentence). */
export class NoDatabaseError extends Error {}

function noDatabase(config: Readonly<Config>): NoDatabaseError {
  const where = config.databaseUrl.startsWith("sqlite:")
    ? `there is no guestwifi database at ${config.databaseUrl.slice("sqlite:".length)} (DATABASE_URL)`
    : "the PostgreSQL database of DATABASE_URL has no guestwifi tables (in its search path)";
  return new NoDatabaseError(`${where}: the service creates it on its first start (guestwifi serve), or guestwifi migrate does`);
}

/**
 * Opens the configured database, brings its schema up to date (unless told not to), runs fn with
 * the database and repositories of this command (an app of its own), closes it.
 */
export async function withDb<T>(fn: (ctx: Ctx, config: Readonly<Config>) => Promise<T>, opts: WithDbOptions = {}): Promise<T> {
  const { migrate = true, create = false } = opts;
  const config = loadConfig();
  if (!create && config.databaseUrl.startsWith("sqlite:") && !existsSync(config.databaseUrl.slice("sqlite:".length))) {
    throw noDatabase(config);
  }
  const db = createDatabase(config.databaseUrl, { timeouts: config.databaseTimeouts });
  try {
    if (!create && !(await isMigrated(db))) throw noDatabase(config);
    if (migrate) await migrateToLatest(db);
    return await fn({ db, repos: createRepositories() }, config);
  } finally {
    await db.destroy();
  }
}
