/**
 * RadSec (RFC 6614) with a second real peer: FreeRADIUS 3.2 proxying radclient's UDP requests to
 * our listener as a TLS home server, with a device certificate issued through the API
 * (POST /api/issue-device-certificate); accept, reject, accounting, and a revoked certificate
 * refused. On SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { DIALECTS } from "../helpers/db.js";
import { FREERADIUS_UDP_SECRET, type FreeradiusProxy, startFreeradiusProxy } from "./freeradius-proxy.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "./radius-fixtures.js";
import { RADSEC_ENV } from "./radsec-fixtures.js";
import type { ProxyTls } from "./radsecproxy.js";

const OPTIONS = { session_time_limit: 1800, max_bandwidth_up: 125_000, max_bandwidth_down: 250_000 };

for (const dialect of DIALECTS) {
  describe(`radsec through FreeRADIUS as the client (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    let fr: FreeradiusProxy;

    /** The device's certificate as the API hands it out. */
    const issued = async (deviceId: number): Promise<ProxyTls> => {
      const res = await t.call("POST", "issue-device-certificate", { device_id: deviceId });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const d = res.body.data;
      return { caCertificate: d.ca_certificate, certificate: d.certificate, privateKey: d.private_key };
    };

    before(async () => {
      t = await createRadiusEnv(dialect, RADSEC_ENV);
      locationId = await makeLocation(t, OPTIONS);
      ap = await makeDevice(t, locationId);
      fr = await startFreeradiusProxy(t.radius.radsec!.port, await issued(ap.id));
    });
    after(async () => {
      await fr?.stop();
      await t?.close();
    });

    const credentialFor = async (deviceId: number, clientMac: string) => {
      const guestId = await makeGuest(t, locationId, clientMac);
      return issueCredential(t.deps, { guestId, locationId, deviceId, clientMac, ttlSeconds: 60 });
    };

    it("accepts a PAP credential with the location's attributes, and rejects it the second time", async () => {
      const client = randomMac();
      const cred = await credentialFor(ap.id, client);
      const r = await radclient(fr.authPort, "auth", FREERADIUS_UDP_SECRET, papRequest(ap.mac, client, cred.username, cred.password), 15);
      assert.equal(r.code, "Access-Accept", `${r.output}\n${fr.log()}`);
      assert.equal(r.attributes["Session-Timeout"], "1800");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Up"], "1000000");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Down"], "2000000");
      const again = await radclient(fr.authPort, "auth", FREERADIUS_UDP_SECRET, papRequest(ap.mac, client, cred.username, cred.password), 15);
      assert.equal(again.code, "Access-Reject", `${again.output}\n${fr.log()}`);
    });

    it("rejects a wrong password", async () => {
      const client = randomMac();
      const cred = await credentialFor(ap.id, client);
      const r = await radclient(fr.authPort, "auth", FREERADIUS_UDP_SECRET, papRequest(ap.mac, client, cred.username, `${cred.password}x`), 15);
      assert.equal(r.code, "Access-Reject", `${r.output}\n${fr.log()}`);
      const used = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", cred.username).executeTakeFirstOrThrow();
      assert.equal(used.used_at, null, "a wrong password does not use the credential up");
    });

    it("records accounting Start, Interim-Update and Stop sent through it", async () => {
      const client = randomMac();
      await credentialFor(ap.id, client);
      const sessionId = `fr-radsec-${Date.now()}`;
      const acct = (status: string, extra: string[] = []) =>
        radclient(fr.acctPort, "acct", FREERADIUS_UDP_SECRET, [
          `Acct-Status-Type = ${status}`,
          `Acct-Session-Id = "${sessionId}"`,
          `User-Name = "${dashed(client)}"`,
          `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`,
          `Calling-Station-Id = "${dashed(client)}"`,
          "NAS-IP-Address = 127.0.0.1",
          ...extra,
        ], 15);
      for (const [status, extra] of [
        ["Start", []],
        ["Interim-Update", ["Acct-Session-Time = 60", "Acct-Input-Octets = 1000", "Acct-Output-Octets = 5000"]],
        ["Stop", ["Acct-Session-Time = 120", "Acct-Input-Octets = 2000", "Acct-Output-Octets = 9000", "Acct-Terminate-Cause = User-Request"]],
      ] as const) {
        const r = await acct(status, [...extra]);
        assert.equal(r.code, "Accounting-Response", `${status}: ${r.output}\n${fr.log()}`);
      }
      const row = await t.db
        .selectFrom("radius_sessions")
        .select(["device_id", "input_octets", "output_octets", "stopped_at"])
        .where("acct_session_id", "=", sessionId)
        .executeTakeFirstOrThrow();
      assert.equal(row.device_id, ap.id, "the session is the certificate's device's");
      assert.equal(Number(row.input_octets), 2000);
      assert.equal(Number(row.output_octets), 9000);
      assert.notEqual(row.stopped_at, null);
    });

    it("a revoked certificate's connection is closed and the next one refused", async () => {
      const other = await makeDevice(t, locationId);
      const tls = await issued(other.id);
      const fr2 = await startFreeradiusProxy(t.radius.radsec!.port, tls);
      try {
        const client = randomMac();
        const ok = await credentialFor(other.id, client);
        const r = await radclient(fr2.authPort, "auth", FREERADIUS_UDP_SECRET, papRequest(other.mac, client, ok.username, ok.password), 15);
        assert.equal(r.code, "Access-Accept", `${r.output}\n${fr2.log()}`);
        const revoked = await t.call("POST", "revoke-device-certificate", { device_id: other.id });
        assert.equal(revoked.statusCode, 200, JSON.stringify(revoked.body));
        // The same guest's next credential: only the certificate differs from the accepted request.
        const guestId = await makeGuest(t, locationId, client);
        const next = await issueCredential(t.deps, { guestId, locationId, deviceId: other.id, clientMac: client, ttlSeconds: 60 });
        const refused = await radclient(fr2.authPort, "auth", FREERADIUS_UDP_SECRET, papRequest(other.mac, client, next.username, next.password), 5);
        assert.notEqual(refused.code, "Access-Accept", `${refused.output}\n${fr2.log()}`);
        const used = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", next.username).executeTakeFirstOrThrow();
        assert.equal(used.used_at, null, "the request never reached the handler");
      } finally {
        await fr2.stop();
      }
    });
  });
}
