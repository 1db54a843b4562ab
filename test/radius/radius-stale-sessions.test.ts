/**
 * Stale sessions: a session whose gateway missed three Interim-Updates is closed (cause
 * Stale-Session, as of the last time it was heard of), stops counting as online, keeps what it
 * counted, and is opened again if the gateway speaks of it after all. Accounting by radclient, on
 * SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toDbDatetime } from "../../src/db/time.js";
import { closeStaleSessions, staleAfterMs } from "../../src/radius/housekeeping.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";

for (const dialect of DIALECTS) {
  describe(`stale sessions (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    let n = 0;
    before(async () => {
      t = await createRadiusEnv(dialect, {}, { RADIUS_INTERIM_INTERVAL: "120" });
      locationId = await makeLocation(t);
      ap = await makeDevice(t, locationId);
    });
    after(async () => t.close());

    const acct = (lines: string[]) => radclient(t.radius.acctPort, "acct", ap.secret, [...lines, `Called-Station-Id = "${dashed(ap.mac)}:Guest"`]);
    const guestTotals = async (guestId: number) => {
      const g = await t.db.selectFrom("guests").select(["radius_total_bandwidth_input", "radius_session_total_time"]).where("id", "=", guestId).executeTakeFirstOrThrow();
      return [Number(g.radius_total_bandwidth_input), Number(g.radius_session_total_time)];
    };
    const listed = async (guestId: number) =>
      (await t.call("GET", "session-list", { location_ids: String(locationId) })).body.data.some((e: { social_user_id: number }) => e.social_user_id === guestId);

    it("closes a session after three missed interim intervals, keeps its totals, and opens it again when the gateway speaks", async () => {
      assert.equal(staleAfterMs(t.config), 3 * 120 * 1000, "three intervals, shorter than RADIUS_STALE_SESSION_HOURS");
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const id = `stale-${dialect}-${++n}`;
      const lines = [`User-Name = "${dashed(client)}"`, `Acct-Session-Id = "${id}"`, `Calling-Station-Id = "${dashed(client)}"`];
      await acct(["Acct-Status-Type = Start", ...lines]);
      await acct(["Acct-Status-Type = Interim-Update", ...lines, "Acct-Session-Time = 120", "Acct-Input-Octets = 1000"]);
      assert.deepEqual(await guestTotals(guestId), [1000, 120]);
      const heard = (secondsAgo: number) =>
        t.db.updateTable("radius_sessions").set({ updated_at: toDbDatetime(new Date(Date.now() - secondsAgo * 1000)) }).where("acct_session_id", "=", id).execute();

      await heard(3 * 120 - 30);
      assert.equal(await closeStaleSessions(t.deps, t.config), 0, "not yet: two intervals and a half");
      assert.equal(await listed(guestId), true);

      await heard(3 * 120 + 30);
      const lastHeard = (await t.db.selectFrom("radius_sessions").select("updated_at").where("acct_session_id", "=", id).executeTakeFirstOrThrow()).updated_at;
      assert.equal(await closeStaleSessions(t.deps, t.config), 1);
      const closed = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", id).executeTakeFirstOrThrow();
      assert.equal(closed.terminate_cause, "Stale-Session");
      assert.equal(closed.stopped_at, lastHeard, "closed as of the last time it was heard of");
      assert.equal(await listed(guestId), false, "not online any more");
      assert.deepEqual(await guestTotals(guestId), [1000, 120], "what it counted stays counted");
      assert.equal(await closeStaleSessions(t.deps, t.config), 0, "closed once");

      // The gateway had it after all: the next Interim-Update opens it and adds only what grew.
      await acct(["Acct-Status-Type = Interim-Update", ...lines, "Acct-Session-Time = 600", "Acct-Input-Octets = 4000"]);
      const reopened = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", id).executeTakeFirstOrThrow();
      assert.equal(reopened.stopped_at, null);
      assert.equal(reopened.terminate_cause, null);
      assert.equal(await listed(guestId), true);
      assert.deepEqual(await guestTotals(guestId), [4000, 600]);

      // A Stop closes it for good with the gateway's cause.
      await acct(["Acct-Status-Type = Stop", ...lines, "Acct-Session-Time = 660", "Acct-Input-Octets = 4500", "Acct-Terminate-Cause = User-Request"]);
      const stopped = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", id).executeTakeFirstOrThrow();
      assert.ok(stopped.stopped_at);
      assert.equal(stopped.terminate_cause, "User-Request");
      assert.deepEqual(await guestTotals(guestId), [4500, 660]);
    });

    it("does not reopen a session the gateway stopped, and never closes one heard from recently", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const id = `stale-${dialect}-${++n}`;
      const lines = [`User-Name = "${dashed(client)}"`, `Acct-Session-Id = "${id}"`, `Calling-Station-Id = "${dashed(client)}"`];
      await acct(["Acct-Status-Type = Start", ...lines]);
      await closeStaleSessions(t.deps, t.config);
      assert.equal(await listed(guestId), true, "fresh sessions stay open");
      await acct(["Acct-Status-Type = Stop", ...lines, "Acct-Session-Time = 60", "Acct-Terminate-Cause = User-Request"]);
      // A late, retransmitted Interim-Update does not bring it back.
      await acct(["Acct-Status-Type = Interim-Update", ...lines, "Acct-Session-Time = 90", "Acct-Input-Octets = 10"]);
      const row = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", id).executeTakeFirstOrThrow();
      assert.ok(row.stopped_at);
      assert.equal(row.terminate_cause, "User-Request");
    });
  });
}
