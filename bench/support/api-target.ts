/**
 * A benchmark target in its own process (so the load generator does not share its event loop):
 * `tsx bench/support/api-target.ts app <databaseUrl> [pgSchema]` seeds an account and 10 locations and
 * serves the real app; `... bare <json>` serves one bare Fastify route sending that JSON text from memory.
 * Prints one line of JSON ({ port, identifier, ids }) when ready; stops on SIGTERM.
 */
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { benchLocationParams } from "./bench-location.js";
import { openTargetDatabase, portOf, ready, serveBare, stopOnSigterm } from "./target-process.js";

const [mode, arg, schema] = process.argv.slice(2);

async function serveApp(databaseUrl: string) {
  const db = await openTargetDatabase(databaseUrl, schema);
  await migrateToLatest(db);
  const config = loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: databaseUrl, RADIUS_ENABLED: "false" });
  const app = await buildApp({ config, db, logger: false });
  const { identifier } = await createAccount(app.deps, `bench-${Date.now()}@example.com`);
  await app.ready();
  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await app.inject({
      method: "POST",
      url: "/api/create-or-update-location",
      payload: { identifier, ...benchLocationParams(`Bench Location ${i}`, `${i} Main Street`) },
    });
    ids.push(res.json().location_id);
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  ready({ port: portOf(app), identifier, ids });
  stopOnSigterm(app, db, schema);
}

// The very text the app answered (the bench fetched it), sent as it is.
if (mode === "bare") await serveBare({ "/api/get-location": { body: arg } });
else await serveApp(arg);
