/**
 * The background jobs' own connections (DB_JOBS_POOL_SIZE): on PostgreSQL a webhook delivery is
 * claimed, sent and recorded while every connection of HTTP's pool is taken (a login burst holds
 * them all), instead of waiting for one of them to come free.
 */
import assert from "node:assert/strict";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { loadConfig } from "../../../src/config.js";
import { type RunningService, startService } from "../../../src/server.js";
import { type TestApp, testAppOf } from "../../helpers/app.js";
import { DIALECTS, type TestDb, createTestDb } from "../../helpers/db.js";
import { waitUntil } from "../../helpers/wait.js";
import { createLocation, login } from "../guests/guests-fixtures.js";

if (DIALECTS.includes("postgres")) {
  describe("webhook deliveries while HTTP's connections are all taken (postgres)", () => {
    let tdb: TestDb;
    let service: RunningService;
    let t: TestApp;
    let server: Server;
    const got: string[] = [];

    before(async () => {
      server = createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          got.push(String(req.headers["webhook-id"]));
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      tdb = await createTestDb("postgres");
      const config = loadConfig({
        DATABASE_URL: `${tdb.url}?options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}`,
        HOST: "127.0.0.1", PORT: "0", RADIUS_ENABLED: "false", LOG_LEVEL: "silent",
        // HTTP's pool is one connection, which the test takes; the jobs keep their default two.
        DB_POOL_SIZE: "1", DB_ACQUIRE_TIMEOUT_MS: "30000", WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "50",
      });
      service = await startService(config);
      t = await testAppOf({ ...tdb, db: service.db }, service.app, config);
    });
    after(async () => {
      await service?.stop();
      await tdb?.close();
      await new Promise<void>((r) => server.close(() => r()));
    });

    it("sends and records a delivery while a transaction holds HTTP's only connection", async () => {
      const locationId = await createLocation(t, "Europe/Paris");
      const port = (server.address() as AddressInfo).port;
      const hook = await t.call("POST", "create-or-update-webhook", { url: `http://127.0.0.1:${port}/hook`, events: "guest.login" });
      assert.equal(hook.statusCode, 200, JSON.stringify(hook.body));

      let release!: () => void;
      const released = new Promise<void>((r) => {
        release = r;
      });
      let holding!: () => void;
      const held = new Promise<void>((r) => {
        holding = r;
      });
      const holder = service.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        holding();
        await released;
      });
      try {
        await held;
        // The event is queued through the test's own connections (a login of another instance).
        await login({ ...t, db: tdb.db }, { accountId: t.accountId, locationId, timezone: "Europe/Paris", at: "2026-05-03T10:00:00Z", identity: "burst@example.com" });
        await waitUntil("the delivery sent while HTTP's connection is held", () => got.length === 1, 20_000);
        const recorded = await waitUntil(
          "its outcome recorded",
          async () => {
            const row = await tdb.db.selectFrom("webhook_deliveries").select(["status", "attempts"]).where("webhook_id", "=", hook.body.webhook_id).executeTakeFirst();
            return row?.status === "delivered" && row;
          },
          20_000,
        );
        assert.equal(recorded.attempts, 1);
      } finally {
        release();
        await holder;
      }
    });
  });
}
