/**
 * A benchmark target in its own process (so the load generator does not share its event loop):
 * `tsx bench/support/api-target.ts app <databaseUrl> [pgSchema]` seeds an account and 10 locations and
 * serves the real app; `... bare <json>` serves one bare Fastify route returning that JSON from memory.
 * Prints one line of JSON ({ port, identifier, ids }) when ready; stops on SIGTERM.
 */
import Fastify from "fastify";
import { sql } from "kysely";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";

const [mode, arg, schema] = process.argv.slice(2);

async function serveBare(json: string) {
  const body = JSON.parse(json);
  const app = Fastify({ logger: false });
  app.get("/api/get-location", async () => body);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const addr = app.server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof addr === "object" && addr ? addr.port : 0 })}\n`);
  process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
}

async function serveApp(databaseUrl: string) {
  if (schema) {
    const admin = createDatabase(databaseUrl, { poolSize: 1 });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
  }
  const db = createDatabase(databaseUrl, { searchPath: schema, poolSize: 10 });
  await migrateToLatest(db);
  const config = loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: databaseUrl, RADIUS_ENABLED: "false" });
  const app = await buildApp({ config, db, logger: false });
  const { identifier } = await createAccount(db, `bench-${Date.now()}@example.com`);
  await app.ready();
  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await app.inject({
      method: "POST",
      url: "/api/create-or-update-location",
      payload: {
        identifier,
        location_name: `Bench Location ${i}`,
        address1: `${i} Main Street`,
        town: "Springfield",
        state: "IL",
        zipcode: "62701",
        country: "US",
        phone_number: "(217)555-0100",
        timezone: "America/Chicago",
      },
    });
    ids.push(res.json().location_id);
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  const addr = app.server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof addr === "object" && addr ? addr.port : 0, identifier, ids })}\n`);
  process.on("SIGTERM", () => {
    void (async () => {
      await app.close();
      if (schema) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
      process.exit(0);
    })();
  });
}

if (mode === "bare") await serveBare(arg);
else await serveApp(arg);
