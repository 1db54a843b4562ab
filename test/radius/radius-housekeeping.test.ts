/**
 * Sessions the gateway never closed (no Stop, no accounting at all for a long time: the gateway
 * lost power, the guest roamed away, a Start was never followed up) are closed after
 * RADIUS_STALE_SESSION_HOURS of silence, and closed sessions are deleted RADIUS_SESSION_RETENTION_DAYS
 * after they ended. Fresh and recently closed sessions are left alone.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type AppDeps, createAppDeps } from "../../src/app-deps.js";
import { loadConfig } from "../../src/config.js";
import { nowDatetime, toDbDatetime } from "../../src/db/time.js";
import { runDatabaseHousekeeping } from "../../src/radius/housekeeping.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const dialect of DIALECTS) {
  describe(`radius session housekeeping (${dialect})`, () => {
    let t: TestDb;
    let deps: AppDeps;
    before(async () => {
      t = await createTestDb(dialect);
      deps = createAppDeps(t.db);
    });
    after(async () => t.close());

    it("closes silent sessions after the stale age and purges closed ones after the retention", async () => {
      // A day between Interim-Updates: three missed ones are longer than the six hours, which apply.
      const config = loadConfig({ RADIUS_STALE_SESSION_HOURS: "6", RADIUS_SESSION_RETENTION_DAYS: "30", RADIUS_INTERIM_INTERVAL: "86400" });
      const now = new Date();
      const ago = (ms: number) => toDbDatetime(new Date(now.getTime() - ms));
      const account = await t.db.insertInto("accounts").values({ email: "hk@example.com", created_at: nowDatetime() }).returning("id").executeTakeFirstOrThrow();
      const deviceId = await deps.repos.devices.insert(t.db, {
        account_id: account.id, location_id: null, model_id: "test-ap", name: "AP", mac_address: "02:00:00:00:0a:01",
        radius_secret: "hk-secret", last_upgraded: null, last_heard_at: null, create_date: nowDatetime(), update_date: nowDatetime(),
      });
      const session = (id: string, updatedAgo: number, stoppedAgo: number | null) => ({
        device_id: deviceId, guest_id: null, location_id: null, acct_session_id: id, username: "", client_mac: "",
        started_at: ago(updatedAgo + HOUR), updated_at: ago(updatedAgo), stopped_at: stoppedAgo === null ? null : ago(stoppedAgo),
        session_time: 0, input_octets: 0, output_octets: 0,
      });
      await t.db.insertInto("radius_sessions").values([
        session("open-fresh", 5 * HOUR, null),
        session("open-silent", 7 * HOUR, null),
        session("open-silent-for-months", 40 * DAY, null),
        session("closed-recently", 29 * DAY, 29 * DAY),
        session("closed-long-ago", 31 * DAY, 31 * DAY),
      ]).execute();

      const done = await runDatabaseHousekeeping(deps, config, now);
      assert.deepEqual(done, { closedSessions: 2, purgedSessions: 2, purgedCredentials: 0, purgedConsoleSessions: 0, purgedAuditEntries: 0 });
      const rows = await t.db.selectFrom("radius_sessions").selectAll().where("device_id", "=", deviceId).orderBy("acct_session_id").execute();
      assert.deepEqual(rows.map((r) => r.acct_session_id), ["closed-recently", "open-fresh", "open-silent"]);
      const byId = Object.fromEntries(rows.map((r) => [r.acct_session_id, r]));
      assert.equal(byId["open-fresh"].stopped_at, null);
      assert.equal(byId["open-silent"].stopped_at, byId["open-silent"].updated_at, "closed as of the last time it was heard of");
      assert.equal(byId["open-silent"].terminate_cause, "Stale-Session");
      assert.equal(byId["closed-recently"].terminate_cause, null);
      assert.deepEqual(await runDatabaseHousekeeping(deps, config, now), { closedSessions: 0, purgedSessions: 0, purgedCredentials: 0, purgedConsoleSessions: 0, purgedAuditEntries: 0 });
    });
  });
}
