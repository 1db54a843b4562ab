/**
 * POST /api/disconnect-session: a Disconnect-Request (RFC 5176) to a stand-in gateway that answers
 * ACK, NAK with an Error-Cause, or nothing; the session comes from accounting sent by radclient.
 * On SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DIALECTS } from "../../helpers/db.js";
import { makeSubUser } from "../../helpers/sub-users.js";
import { radclient } from "../../radius/radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, randomMac } from "../../radius/radius-fixtures.js";
import { type StandInNas, startStandInNas } from "../../radius/stand-in-nas.js";

const ATTEMPTS = 3;
const TIMEOUT_MS = 150;

for (const dialect of DIALECTS) {
  describe(`disconnect-session (${dialect})`, () => {
    let t: RadiusEnv;
    let nas: StandInNas;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    let n = 0;
    before(async () => {
      // The stand-in's port goes into the config; the device's secret is made after.
      nas = await startStandInNas("placeholder");
      const env = { RADIUS_COA_PORT: String(nas.port), RADIUS_COA_TIMEOUT_MS: String(TIMEOUT_MS), RADIUS_COA_ATTEMPTS: String(ATTEMPTS) };
      t = await createRadiusEnv(dialect, env, env);
      locationId = await makeLocation(t);
      ap = await makeDevice(t, locationId, t.accountId, "coovachilli");
      nas.secret = ap.secret;
    });
    after(async () => {
      await nas.close();
      await t.close();
    });

    async function startSession(device = ap) {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const id = `dm-${dialect}-${++n}-${Date.now()}`;
      const lines = [`User-Name = "${dashed(client)}"`, `Acct-Session-Id = "${id}"`, `Calling-Station-Id = "${dashed(client)}"`, `Called-Station-Id = "${dashed(device.mac)}:Guest"`];
      const r = await radclient(t.radius.acctPort, "acct", device.secret, ["Acct-Status-Type = Start", ...lines, "Framed-IP-Address = 10.9.8.7"]);
      assert.equal(r.code, "Accounting-Response", r.output);
      const row = await t.db.selectFrom("radius_sessions").select(["id", "nas_ip"]).where("acct_session_id", "=", id).executeTakeFirstOrThrow();
      return { client, guestId, acctId: id, sessionId: row.id, nasIp: row.nas_ip, lines, device };
    }
    const live = async () => (await t.call("GET", "session-list", { location_ids: String(locationId) })).body.data.map((e: { session_id: number }) => e.session_id);
    const requests = (sessionId: number) => t.db.selectFrom("coa_requests").selectAll().where("session_id", "=", sessionId).orderBy("id").execute();

    it("sends a signed Disconnect-Request naming the session; on ACK the session is closed and the result recorded", async () => {
      nas.behaviour = { answer: "ack" };
      nas.received.length = 0;
      const s = await startSession();
      assert.equal(s.nasIp, "127.0.0.1", "the gateway's address is taken from its accounting");
      assert.ok((await live()).includes(s.sessionId));
      const res = await t.call("POST", "disconnect-session", { session_id: s.sessionId });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      assert.equal(res.body.data.result, "ack");
      assert.equal(res.body.data.attempts, 1);
      assert.equal(res.body.data.error_cause, null);
      assert.equal(nas.received.length, 1);
      const got = nas.received[0];
      assert.equal(got.code, "Disconnect-Request");
      assert.ok(got.authenticatorValid, "Request Authenticator per RFC 5176 section 2.3");
      assert.ok(got.messageAuthenticatorValid, "Message-Authenticator per RFC 3579");
      assert.ok(got.messageAuthenticatorFirst, "Message-Authenticator first");
      assert.equal(got.attributes["Acct-Session-Id"], s.acctId);
      assert.equal(got.attributes["User-Name"], dashed(s.client));
      assert.equal(got.attributes["Calling-Station-Id"], dashed(s.client));
      assert.equal(got.attributes["Framed-IP-Address"], "10.9.8.7");
      assert.ok(!(await live()).includes(s.sessionId), "no longer online");
      const row = await t.db.selectFrom("radius_sessions").select(["stopped_at", "terminate_cause"]).where("id", "=", s.sessionId).executeTakeFirstOrThrow();
      assert.ok(row.stopped_at);
      assert.equal(row.terminate_cause, "Admin-Reset");
      const [rec] = await requests(s.sessionId);
      assert.deepEqual([rec.kind, rec.reason, rec.result, rec.attempts, rec.nas_address, rec.nas_port], ["disconnect", "operator", "ack", 1, "127.0.0.1", nas.port]);
      assert.ok(rec.finished_at);
      // The gateway's Stop that follows still counts its last octets.
      const before = await t.db.selectFrom("guests").select("radius_total_bandwidth_input").where("id", "=", s.guestId).executeTakeFirstOrThrow();
      await radclient(t.radius.acctPort, "acct", ap.secret, ["Acct-Status-Type = Stop", ...s.lines, "Acct-Input-Octets = 5000", "Acct-Terminate-Cause = Admin-Reset"]);
      const afterStop = await t.db.selectFrom("guests").select("radius_total_bandwidth_input").where("id", "=", s.guestId).executeTakeFirstOrThrow();
      assert.equal(Number(afterStop.radius_total_bandwidth_input) - Number(before.radius_total_bandwidth_input), 5000);
    });

    it("records a NAK with its Error-Cause and leaves the session open", async () => {
      nas.behaviour = { answer: "nak", errorCause: 503 };
      nas.received.length = 0;
      const s = await startSession();
      const res = await t.call("POST", "disconnect-session", { session_id: s.sessionId });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.data.result, res.body.data.error_cause, res.body.data.attempts], ["nak", 503, 1]);
      assert.ok((await live()).includes(s.sessionId), "still online: the gateway refused");
      const [rec] = await requests(s.sessionId);
      assert.deepEqual([rec.result, rec.error_cause], ["nak", 503]);
    });

    it("retries with back-off when the gateway is silent, then records a timeout", async () => {
      nas.behaviour = { answer: "silent" };
      nas.received.length = 0;
      const s = await startSession();
      const started = Date.now();
      const res = await t.call("POST", "disconnect-session", { session_id: s.sessionId });
      const took = Date.now() - started;
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.data.result, res.body.data.attempts], ["timeout", ATTEMPTS]);
      assert.equal(nas.received.length, ATTEMPTS, "one request per attempt");
      // Retransmissions are the same packet (RFC 5176: same Identifier and authenticator).
      for (const r of nas.received) assert.ok(r.raw.equals(nas.received[0].raw));
      // 150 + 300 + 600 ms of waiting.
      assert.ok(took >= TIMEOUT_MS * (2 ** ATTEMPTS - 1) - 20, `waited ${took} ms`);
      assert.ok((await live()).includes(s.sessionId));
      const [rec] = await requests(s.sessionId);
      assert.deepEqual([rec.result, rec.attempts], ["timeout", ATTEMPTS]);
    });

    it("ignores an answer signed with another secret", async () => {
      nas.behaviour = { answer: "ack" };
      nas.received.length = 0;
      const s = await startSession();
      nas.secret = "not-the-secret";
      try {
        const res = await t.call("POST", "disconnect-session", { session_id: s.sessionId });
        assert.equal(res.body.data.result, "timeout", "a forged ACK does not count");
        assert.equal(nas.received.length, ATTEMPTS);
        assert.equal(nas.received[0].authenticatorValid, false);
      } finally {
        nas.secret = ap.secret;
      }
      assert.ok((await live()).includes(s.sessionId));
    });

    it("records families without Disconnect support as unsupported and sends nothing", async () => {
      nas.received.length = 0;
      const unifi = await makeDevice(t, locationId, t.accountId, "ubiquiti-u6-lite");
      const s = await startSession(unifi);
      const res = await t.call("POST", "disconnect-session", { session_id: s.sessionId });
      assert.equal(res.body.data.result, "unsupported");
      assert.equal(nas.received.length, 0);
    });

    it("refuses read-only sub-users, other accounts' sessions and bad ids, writing nothing", async () => {
      nas.behaviour = { answer: "ack" };
      nas.received.length = 0;
      const s = await startSession();
      const ro = await makeSubUser(t, { readonly: true });
      const denied = await t.call("POST", "disconnect-session", { session_id: s.sessionId }, { identifier: ro.identifier });
      assert.ok(denied.statusCode >= 400 && denied.statusCode < 500, String(denied.statusCode));
      assert.equal(denied.body.status, "error");
      const other = await t.newAccount();
      const foreign = await t.call("POST", "disconnect-session", { session_id: s.sessionId }, { identifier: other.identifier });
      assert.equal(foreign.statusCode, 400);
      assert.ok(foreign.body.message.session_id, JSON.stringify(foreign.body));
      for (const bad of [{}, { session_id: 0 }, { session_id: "x" }, { session_id: 2 ** 31 }]) {
        const r = await t.call("POST", "disconnect-session", bad);
        assert.equal(r.statusCode, 400, JSON.stringify(bad));
        assert.equal(r.body.status, "error");
      }
      assert.equal(nas.received.length, 0, "nothing sent");
      assert.equal((await requests(s.sessionId)).length, 0, "nothing recorded");
      assert.ok((await live()).includes(s.sessionId));
    });
  });
}
