/** Runs the migrations in migrations/ (forward-only in production). */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import { dialectOf } from "./dialect.js";
import * as initial from "./migrations/2026-11-23T0000-initial.js";
import * as smsCodesByLocation from "./migrations/2026-12-01T0000-sms-codes-by-location.js";

/** Static list rather than a folder scan, so it works the same from source and from a bundle. */
const MIGRATIONS: Record<string, Migration> = {
  "2026-11-23T0000-initial": initial,
  "2026-12-01T0000-sms-codes-by-location": smsCodesByLocation,
};

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return MIGRATIONS;
  }
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Kysely looks for its own tables in every schema unless told which one: a kysely_migration_lock
  // in any other schema of the database (another app, a parallel test) would make it skip creating ours.
  const migrationTableSchema =
    dialectOf(db) === "postgres"
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(), migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
