/**
 * SQLite with another connection holding the write lock (a `guestwifi demo` or a backup running
 * beside the server): a write waits DB_ACQUIRE_TIMEOUT_MS, then answers 503 in the API's shape.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";

describe("SQLite write lock held by another connection", () => {
  it("answers a write with 503 after the acquire timeout, and serves again once the lock is gone", async () => {
    const file = join(tmpdir(), `guestwifi-busy-${randomBytes(5).toString("hex")}.db`);
    const config = loadConfig({ DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: "silent", DB_ACQUIRE_TIMEOUT_MS: "300", RADIUS_ENABLED: "false" });
    const db = createDatabase(config.databaseUrl, { timeouts: config.databaseTimeouts });
    const other = new SQLite(file);
    try {
      await migrateToLatest(db);
      const deps = createAppDeps(db);
      const { identifier } = await createAccount(deps, "busy@example.com");
      const app = await buildApp({ config, db, deps, logger: false });
      const write = () =>
        app.inject({
          method: "POST",
          url: "/api/create-or-update-location",
          headers: { identifier },
          payload: {
            location_name: "Busy Cafe", address1: "1 Main St", town: "Springfield", state: "IL", zipcode: "62701",
            country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago",
          },
        });
      other.exec("begin immediate");
      const t0 = Date.now();
      const res = await write();
      const ms = Date.now() - t0;
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().status, "error");
      assert.deepEqual(Object.keys(res.json().message), ["server"]);
      assert.ok(ms >= 250 && ms < 3000, `waited ${ms} ms`);
      other.exec("rollback");
      assert.equal((await write()).statusCode, 200);
      await app.close();
    } finally {
      other.close();
      await db.destroy();
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  });
});
