/**
 * Target of the analytics benchmark, in its own process:
 * `tsx bench/support/analytics-target.ts app <databaseUrl> [pgSchema] [logins]` builds a database of
 * 1 million logins (a fresh PostgreSQL schema, dropped on exit) and serves the real app;
 * `... bare <json>` serves, from memory, a bare Fastify route per path of the given {path: body} map.
 * Prints one line of JSON when ready; stops on SIGTERM.
 */
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";
import { buildAnalyticsData } from "./analytics-data.js";
import { dropTargetDatabase, openTargetDatabase, portOf, ready, serveBare, stopOnSigterm } from "./target-process.js";

const [mode, arg, schema, logins] = process.argv.slice(2);
const BENCH_PASSWORD = "bench owner password";
const log = (m: string) => process.stderr.write(`${m}\n`);

async function serveApp(databaseUrl: string) {
  const pgSchema = schema || undefined;
  const db = await openTargetDatabase(databaseUrl, pgSchema);
  const dropData = () => dropTargetDatabase(db, pgSchema);
  // Stopped while still building: drop what was built (the bench's own finally removes SQLite files).
  const stopEarly = () => void dropData().then(() => process.exit(1));
  process.once("SIGTERM", stopEarly);
  try {
    await migrateToLatest(db);
    // With an owner's password, so that the console benchmark can sign in.
    const email = `bench-${Date.now()}@example.com`;
    const { accountId, identifier } = await createAccount({ db, repos: createRepositories() }, email, BENCH_PASSWORD);
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
    ready({ port: portOf(app), identifier, email, password: BENCH_PASSWORD, buildSeconds, ...data });
    process.off("SIGTERM", stopEarly);
    stopOnSigterm(app, db, pgSchema);
  } catch (err) {
    await dropData();
    throw err;
  }
}

if (mode === "bare") {
  const bodies = JSON.parse(arg) as Record<string, unknown>;
  await serveBare(Object.fromEntries(Object.entries(bodies).map(([path, body]) => [path, { body }])));
}
else await serveApp(arg);
