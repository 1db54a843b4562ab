/**
 * CoA and Disconnect sent on their own (RFC 5176): a location's new options reach its live
 * sessions as a CoA-Request in each gateway family's attributes, and a guest who uses up the daily
 * cap mid-session is disconnected. Accounting by radclient, a stand-in gateway on loopback that
 * answers; on SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";
import { type ReceivedRequest, type StandInNas, startStandInNas } from "./stand-in-nas.js";
import { waitUntil } from "../helpers/wait.js";

const SECRET = "coa-stand-in-secret";

/** The vendor attributes of a raw packet, parsed here: vendor id, type, value. */
function vendorAttributes(raw: Buffer): { vendor: number; type: number; value: Buffer }[] {
  const out: { vendor: number; type: number; value: Buffer }[] = [];
  for (let off = 20; off < raw.length; off += raw[off + 1]) {
    if (raw[off] !== 26) continue;
    const vendor = raw.readUInt32BE(off + 2);
    const len = raw[off + 7];
    out.push({ vendor, type: raw[off + 6], value: raw.subarray(off + 8, off + 6 + len) });
  }
  return out;
}
const vendorInt = (r: ReceivedRequest, vendor: number, type: number) => vendorAttributes(r.raw).find((a) => a.vendor === vendor && a.type === type)?.value.readUInt32BE(0);
const vendorText = (r: ReceivedRequest, vendor: number, type: number) => vendorAttributes(r.raw).find((a) => a.vendor === vendor && a.type === type)?.value.toString("ascii");

for (const dialect of DIALECTS) {
  describe(`CoA and Disconnect from our side (${dialect})`, () => {
    let t: RadiusEnv;
    let nas: StandInNas;
    let n = 0;
    before(async () => {
      nas = await startStandInNas(SECRET);
      const env = { RADIUS_COA_PORT: String(nas.port), RADIUS_COA_TIMEOUT_MS: "200", RADIUS_COA_ATTEMPTS: "2" };
      t = await createRadiusEnv(dialect, env, env);
    });
    after(async () => {
      await nas.close();
      await t.close();
    });

    async function device(locationId: number, model: string) {
      const d = await makeDevice(t, locationId, t.accountId, model);
      await t.db.updateTable("devices").set({ radius_secret: SECRET }).where("id", "=", d.id).execute();
      return { ...d, secret: SECRET };
    }
    async function session(locationId: number, ap: { mac: string }, octets: number) {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const id = `coa-${dialect}-${++n}-${Date.now()}`;
      const lines = [`User-Name = "${dashed(client)}"`, `Acct-Session-Id = "${id}"`, `Calling-Station-Id = "${dashed(client)}"`, `Called-Station-Id = "${dashed(ap.mac)}:Guest"`];
      const acct = async (more: string[]) => {
        const r = await radclient(t.radius.acctPort, "acct", SECRET, [...lines, ...more]);
        assert.equal(r.code, "Accounting-Response", r.output);
      };
      await acct(["Acct-Status-Type = Start"]);
      if (octets > 0) await acct(["Acct-Status-Type = Interim-Update", "Acct-Session-Time = 60", `Acct-Input-Octets = ${octets}`]);
      const row = await t.db.selectFrom("radius_sessions").select("id").where("acct_session_id", "=", id).executeTakeFirstOrThrow();
      return { id, sessionId: row.id, guestId, acct };
    }
    const requestsOf = (sessionId: number) => t.db.selectFrom("coa_requests").selectAll().where("session_id", "=", sessionId).orderBy("id").execute();

    it("sends each live session of a location its new limits in its family's attributes when the options change", async () => {
      nas.behaviour = { answer: "ack" };
      nas.received.length = 0;
      const locationId = await makeLocation(t);
      const coova = await device(locationId, "coovachilli");
      const mikrotik = await device(locationId, "mikrotik-hap-ac2");
      const unifi = await device(locationId, "ubiquiti-u6-lite");
      const a = await session(locationId, coova, 1000);
      const b = await session(locationId, mikrotik, 1000);
      const c = await session(locationId, unifi, 1000);
      const res = await t.call("POST", "set-session-and-bandwidth-info", {
        location_id: locationId,
        session_time_limit: 3600,
        max_bandwidth: 125000,
        max_bandwidth_up: 62500,
        daily_bandwidth_cap: 1000000,
      });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const [ra, rb] = await waitUntil("two CoA-Requests", () => {
        const byId = (id: string) => nas.received.find((r) => r.attributes["Acct-Session-Id"] === id);
        return byId(a.id) && byId(b.id) ? [byId(a.id)!, byId(b.id)!] : undefined;
      });
      for (const r of [ra, rb]) {
        assert.equal(r.code, "CoA-Request");
        assert.ok(r.authenticatorValid && r.messageAuthenticatorValid && r.messageAuthenticatorFirst);
        assert.equal(r.attributes["Session-Timeout"], 3600);
      }
      // CoovaChilli: WISPr rates in bits/s, the remaining cap as ChilliSpot-Max-Total-Octets.
      assert.equal(vendorInt(ra, 14122, 8), 1_000_000);
      assert.equal(vendorInt(ra, 14122, 7), 500_000);
      assert.equal(vendorInt(ra, 14559, 3), 1_000_000 - 1000);
      // RouterOS: Mikrotik-Rate-Limit "rx/tx" and Mikrotik-Total-Limit.
      assert.equal(vendorText(rb, 14988, 8), "500k/1M");
      assert.equal(vendorInt(rb, 14988, 17), 1_000_000 - 1000);
      const ackA = await waitUntil("the CoA recorded", async () => (await requestsOf(a.sessionId)).find((x) => x.result === "ack"));
      assert.deepEqual([ackA.kind, ackA.reason, ackA.attempts], ["coa", "options-changed", 1]);
      const onUnifi = await waitUntil("the UniFi session recorded", async () => (await requestsOf(c.sessionId))[0]);
      assert.equal(onUnifi.result, "unsupported", "UniFi has no CoA: recorded, nothing sent");
      assert.equal(nas.received.filter((r) => r.attributes["Acct-Session-Id"] === c.id).length, 0);
    });

    it("sends nothing when the change is refused, and starts the CoA of an accepted one before answering", async () => {
      nas.received.length = 0;
      const locationId = await makeLocation(t);
      const coova = await device(locationId, "coovachilli");
      const live = await session(locationId, coova, 0);
      // The CoA is started by the write's after-commit hook, before the answer is sent: a call that
      // never committed has started none by the time it is answered (no waiting needed to see it).
      const control = t.deps.sessionControl!;
      const real = control.applyLocationOptions;
      const started: number[] = [];
      control.applyLocationOptions = (id, ...rest) => {
        started.push(id);
        return real(id, ...rest);
      };
      try {
        const res = await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, session_time_limit: -5 });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(started, []);
        const ok = await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, session_time_limit: 60 });
        assert.equal(ok.statusCode, 200);
        assert.deepEqual(started, [locationId], "the accepted call has started its CoA by the time it is answered");
        // Its outcome is recorded before the next test counts what the stand-in received.
        await waitUntil("the CoA recorded", async () => (await requestsOf(live.sessionId)).find((x) => x.result !== "pending"));
      } finally {
        control.applyLocationOptions = real;
      }
    });

    it("disconnects a session whose guest uses up the daily cap mid-session", async () => {
      nas.behaviour = { answer: "ack" };
      nas.received.length = 0;
      const locationId = await makeLocation(t, { daily_bandwidth_cap: 10_000 });
      const coova = await device(locationId, "coovachilli");
      // A Disconnect for the cap is started right after the accounting commits, before the
      // Accounting-Response goes out: one not started by the time that answer is here never will be.
      const control = t.deps.sessionControl!;
      const real = control.disconnect;
      const started: string[] = [];
      control.disconnect = (id, reason, ...rest) => {
        started.push(reason);
        return real(id, reason, ...rest);
      };
      let s: Awaited<ReturnType<typeof session>>;
      try {
        s = await session(locationId, coova, 6000);
        assert.deepEqual(started, [], "under the cap: no disconnect started");
        await s.acct(["Acct-Status-Type = Interim-Update", "Acct-Session-Time = 120", "Acct-Input-Octets = 12000"]);
        assert.deepEqual(started, ["daily-cap"], "over the cap: the disconnect started by the time the accounting is answered");
      } finally {
        control.disconnect = real;
      }
      const dm = await waitUntil("a Disconnect-Request", () => nas.received.find((r) => r.code === "Disconnect-Request"));
      assert.equal(dm.attributes["Acct-Session-Id"], s.id);
      assert.ok(dm.authenticatorValid && dm.messageAuthenticatorValid);
      const rec = await waitUntil("the disconnect recorded", async () => (await requestsOf(s.sessionId)).find((x) => x.result === "ack"));
      assert.deepEqual([rec.kind, rec.reason], ["disconnect", "daily-cap"]);
      const row = await t.db.selectFrom("radius_sessions").select(["stopped_at", "terminate_cause"]).where("id", "=", s.sessionId).executeTakeFirstOrThrow();
      assert.ok(row.stopped_at);
      assert.equal(row.terminate_cause, "Admin-Reset");
    });

    it("ends every live session of a guest on request (a voucher run out), through the app's session control", async () => {
      nas.behaviour = { answer: "ack" };
      nas.received.length = 0;
      const locationId = await makeLocation(t);
      const coova = await device(locationId, "coovachilli");
      const s = await session(locationId, coova, 100);
      const outcomes = await t.deps.sessionControl!.disconnectGuest(s.guestId, locationId, "voucher", t.config);
      assert.deepEqual(
        outcomes.map((o) => [o.sessionId, o.result]),
        [[s.sessionId, "ack"]],
      );
      assert.equal((await requestsOf(s.sessionId))[0].reason, "voucher");
    });
  });
}
