/**
 * Target of the analytics benchmark, in its own process:
 * `tsx bench/support/analytics-target.ts app <databaseUrl> [pgSchema] [logins]` builds a database of
 * 1 million logins (a fresh PostgreSQL schema, dropped on exit) and serves the real app;
 * `... bare <json>` serves, from memory, a bare Fastify route per path of the given {path: body} map.
 * Prints one line of JSON when ready; stops on SIGTERM.
 */
import Fastify from "fastify";
import { sql } from "kysely";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { buildAnalyticsData } from "./analytics-data.js";

const [mode, arg, schema, logins] = process.argv.slice(2);
const log = (m: string) => process.stderr.write(`${m}\n`);

function ready(info: object): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

async function serveBare(json: string) {
  const bodies = JSON.parse(json) as Record<string, unknown>;
  const app = Fastify({ logger: false });
  for (const [path, body] of Object.entries(bodies)) app.get(path, async () => body);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const addr = app.server.address();
  ready({ port: typeof addr === "object" && addr ? addr.port : 0 });
  process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
}

async function serveApp(databaseUrl: string) {
  const pgSchema = schema || undefined;
  if (pgSchema) {
    const admin = createDatabase(databaseUrl, { poolSize: 1 });
    await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(admin);
    await sql`create schema ${sql.id(pgSchema)}`.execute(admin);
    await admin.destroy();
  }
  const db = createDatabase(databaseUrl, { searchPath: pgSchema, poolSize: 10 });
  const dropData = async () => {
    if (pgSchema) await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(db);
    await db.destroy();
  };
  // Stopped while still building: drop what was built (the bench's own finally removes SQLite files).
  const stopEarly = () => void dropData().then(() => process.exit(1));
  process.once("SIGTERM", stopEarly);
  try {
    await migrateToLatest(db);
    const { accountId, identifier } = await createAccount(db, `bench-${Date.now()}@example.com`);
    const started = Date.now();
    const data = await buildAnalyticsData(db, accountId, {
      logins: Number(logins ?? 1_000_000),
      locations: 20,
      days: 365,
      // Ending today, as live data does: the last days of every range are still open.
      lastDay: new Date().toISOString().slice(0, 10),
      log,
    });
    const buildSeconds = (Date.now() - started) / 1000;
    const config = loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: databaseUrl, RADIUS_ENABLED: "false" });
    const app = await buildApp({ config, db, logger: false });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const addr = app.server.address();
    ready({ port: typeof addr === "object" && addr ? addr.port : 0, identifier, buildSeconds, ...data });
    process.off("SIGTERM", stopEarly);
    process.on("SIGTERM", () => {
      void (async () => {
        await app.close();
        await dropData();
        process.exit(0);
      })();
    });
  } catch (err) {
    await dropData();
    throw err;
  }
}

if (mode === "bare") await serveBare(arg);
else await serveApp(arg);
