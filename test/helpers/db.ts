/** Fresh migrated databases for tests: a SQLite file, or a PostgreSQL schema of its own. */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { type DB, createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";

export type Dialect = "sqlite" | "postgres";

export const PG_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Both dialects unless TEST_DIALECTS narrows it (CI runs both; PostgreSQL never skips silently). */
export const DIALECTS: Dialect[] = (process.env.TEST_DIALECTS ?? "sqlite,postgres").split(",").map((d) => d.trim()) as Dialect[];

export interface TestDb {
  dialect: Dialect;
  db: DB;
  url: string;
  /** PostgreSQL schema name (search_path) when dialect is postgres. */
  schema?: string;
  close(): Promise<void>;
}

export async function createTestDb(dialect: Dialect): Promise<TestDb> {
  const tag = randomBytes(6).toString("hex");
  if (dialect === "sqlite") {
    const file = join(tmpdir(), `guestwifi-test-${tag}.db`);
    const url = `sqlite:${file}`;
    const db = createDatabase(url);
    await migrateToLatest(db);
    return {
      dialect,
      db,
      url,
      async close() {
        await db.destroy();
        for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
      },
    };
  }
  const schema = `t_${tag}`;
  const admin = createDatabase(PG_URL, { poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  await admin.destroy();
  const db = createDatabase(PG_URL, { searchPath: schema, poolSize: 5 });
  await migrateToLatest(db);
  return {
    dialect,
    db,
    url: PG_URL,
    schema,
    async close() {
      await db.destroy();
      const a = createDatabase(PG_URL, { poolSize: 1 });
      await sql`drop schema ${sql.id(schema)} cascade`.execute(a);
      await a.destroy();
    },
  };
}

/**
 * Runs `fn` with a connection for bulk seeding: on PostgreSQL one of its own on the test's schema,
 * without the service's statement and read timeouts (an insert of a million rows may take minutes on
 * a loaded machine, and the pool's read timeout would end it); on SQLite the test's own database (one
 * writer per file, and no statement timeout there).
 */
export async function withSeedConnection<T>(t: TestDb, fn: (db: DB) => Promise<T>): Promise<T> {
  if (t.dialect === "sqlite") return fn(t.db);
  const hour = 3_600_000;
  const db = createDatabase(PG_URL, { searchPath: t.schema, poolSize: 1, timeouts: { acquireMs: hour, connectMs: 60_000, statementMs: hour } });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}
