/** What the guestwifi commands share: the configured database, opened and closed around one task. */
import { type Config, loadConfig } from "../config.js";
import { createDatabase } from "../db/database.js";
import { migrateToLatest } from "../db/migrator.js";
import { type Ctx, createRepositories } from "../modules/context.js";

/** Loose on purpose: the account's owner reads the address back; it only has to look like one. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

/**
 * Opens the configured database, brings its schema up to date (unless told not to), runs fn with
 * the database and repositories of this command (an app of its own), closes it.
 */
export async function withDb<T>(fn: (ctx: Ctx, config: Readonly<Config>) => Promise<T>, migrate = true): Promise<T> {
  const config = loadConfig();
  const db = createDatabase(config.databaseUrl, { timeouts: config.databaseTimeouts });
  try {
    if (migrate) await migrateToLatest(db);
    return await fn({ db, repos: createRepositories() }, config);
  } finally {
    await db.destroy();
  }
}
