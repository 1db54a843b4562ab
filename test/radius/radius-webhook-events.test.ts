/**
 * RADIUS accounting queues session.start and session.stop for the account's webhooks (real
 * radclient over UDP): once per session, a repeated Stop adds nothing, ids and counters only
 * (no MAC, no address), only for webhooks following the session's location.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";

for (const dialect of DIALECTS) {
  describe(`radius webhook events (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let otherLocation: number;
    let ap: { id: number; mac: string; secret: string };
    before(async () => {
      t = await createRadiusEnv(dialect);
      locationId = await makeLocation(t);
      otherLocation = await makeLocation(t);
      ap = await makeDevice(t, locationId);
    });
    after(async () => t.close());

    it("queues session.start and session.stop once each, with ids and counters only", async () => {
      const all = await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/all", events: "session.start,session.stop" });
      const elsewhere = await t.call("POST", "create-or-update-webhook", {
        url: "https://93.184.215.14/elsewhere",
        events: "session.start,session.stop",
        location_ids: String(otherLocation),
      });
      assert.equal(all.statusCode, 200, JSON.stringify(all.body));
      assert.equal(elsewhere.statusCode, 200, JSON.stringify(elsewhere.body));
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
      const session = [
        `User-Name = "${cred.username}"`,
        `Acct-Session-Id = "wh-${guestId}"`,
        `Calling-Station-Id = "${dashed(client)}"`,
        `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`,
        `Framed-IP-Address = 10.9.8.7`,
      ];
      const acct = (lines: string[]) => radclient(t.radius.acctPort, "acct", ap.secret, [...lines, ...session]);
      assert.equal((await acct(["Acct-Status-Type = Start"])).code, "Accounting-Response");
      await acct(["Acct-Status-Type = Interim-Update", "Acct-Session-Time = 60", "Acct-Input-Octets = 10"]);
      const stop = ["Acct-Status-Type = Stop", "Acct-Session-Time = 120", "Acct-Input-Octets = 20", "Acct-Output-Octets = 30", "Acct-Terminate-Cause = User-Request"];
      assert.equal((await acct(stop)).code, "Accounting-Response");
      assert.equal((await acct([...stop, "Acct-Delay-Time = 5"])).code, "Accounting-Response");

      const rows = await t.db.selectFrom("webhook_deliveries").selectAll().orderBy("id").execute();
      assert.deepEqual(
        rows.map((r) => [r.webhook_id, r.event_type]),
        [
          [all.body.webhook_id, "session.start"],
          [all.body.webhook_id, "session.stop"],
        ],
      );
      const start = JSON.parse(rows[0]!.payload);
      const end = JSON.parse(rows[1]!.payload);
      assert.equal(start.data.guest_id, guestId);
      assert.equal(start.data.location_id, locationId);
      assert.equal(start.data.device_id, ap.id);
      assert.equal(end.data.session_id, start.data.session_id);
      assert.equal(end.data.session_time, 120);
      assert.equal(end.data.input_octets, 20);
      assert.equal(end.data.output_octets, 30);
      assert.equal(end.data.terminate_cause, "User-Request");
      for (const text of rows.map((r) => r.payload)) {
        assert.equal(text.includes(client), false, "no MAC in session events");
        assert.equal(text.includes("10.9.8.7"), false, "no address in session events");
      }
    });
  });
}
