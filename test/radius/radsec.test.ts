/**
 * RadSec (RFC 6614) with a real peer: radclient's UDP requests relayed by radsecproxy over TLS,
 * with a device certificate issued by the service, to our listener; on SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { issueDeviceCertificate, revokeDeviceCertificates, closeRevokedConnections } from "../../src/modules/device-certificates/device-certificates.service.js";
import { createCa, issueCertificate } from "../../src/modules/device-certificates/certificate-authority.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "./radius-fixtures.js";
import { RADSEC_ENV } from "./radsec-fixtures.js";
import { countsOf, dropCounted } from "./radius-counts.js";
import { PROXY_UDP_SECRET, type RadsecProxy, startRadsecproxy } from "./radsecproxy.js";

const OPTIONS = { session_time_limit: 3600, max_bandwidth_up: 125_000, max_bandwidth_down: 250_000, daily_bandwidth_cap: 500_000_000 };


for (const dialect of DIALECTS) {
  describe(`radsec through radsecproxy (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    let proxy: RadsecProxy;
    before(async () => {
      t = await createRadiusEnv(dialect, RADSEC_ENV);
      locationId = await makeLocation(t, OPTIONS);
      ap = await makeDevice(t, locationId);
      const device = await t.db.selectFrom("devices").selectAll().where("id", "=", ap.id).executeTakeFirstOrThrow();
      const bundle = await issueDeviceCertificate(t.deps, t.radiusConfig, device);
      proxy = await startRadsecproxy(t.radius.radsec!.port, {
        caCertificate: bundle.caCertificate,
        certificate: bundle.issued.certificate,
        privateKey: bundle.issued.privateKey,
      });
    });
    after(async () => {
      await proxy?.stop();
      await t.close();
    });

    const credentialFor = async (clientMac: string) => {
      const guestId = await makeGuest(t, locationId, clientMac);
      return issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac, ttlSeconds: 60 });
    };
    const viaProxy = (kind: "auth" | "acct", lines: string[]) => radclient(proxy.udpPort, kind, PROXY_UDP_SECRET, lines, 5);

    it("accepts a PAP credential with the location's attributes, and rejects it the second time", async () => {
      const client = randomMac();
      const cred = await credentialFor(client);
      const r = await viaProxy("auth", papRequest(ap.mac, client, cred.username, cred.password));
      assert.equal(r.code, "Access-Accept", `${r.output}\n${proxy.log()}`);
      assert.equal(r.attributes["Session-Timeout"], "3600");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Down"], "2000000");
      const again = await viaProxy("auth", papRequest(ap.mac, client, cred.username, cred.password));
      assert.equal(again.code, "Access-Reject", again.output);
    });

    it("records accounting sent over RadSec", async () => {
      const client = randomMac();
      await credentialFor(client);
      const sessionId = `radsec-${Date.now()}`;
      const r = await viaProxy("acct", [
        "Acct-Status-Type = Start",
        `Acct-Session-Id = "${sessionId}"`,
        `User-Name = "${dashed(client)}"`,
        `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`,
        `Calling-Station-Id = "${dashed(client)}"`,
      ]);
      assert.equal(r.code, "Accounting-Response", `${r.output}\n${proxy.log()}`);
      const row = await t.db.selectFrom("radius_sessions").select(["device_id", "nas_ip"]).where("acct_session_id", "=", sessionId).executeTakeFirstOrThrow();
      assert.equal(row.device_id, ap.id);
    });

    it("a revoked certificate's connection is closed and the next one refused", async () => {
      // A second device with its own proxy, so the other tests keep theirs.
      const other = await makeDevice(t, locationId);
      const device = await t.db.selectFrom("devices").selectAll().where("id", "=", other.id).executeTakeFirstOrThrow();
      const bundle = await issueDeviceCertificate(t.deps, t.radiusConfig, device);
      const p2 = await startRadsecproxy(t.radius.radsec!.port, { caCertificate: bundle.caCertificate, certificate: bundle.issued.certificate, privateKey: bundle.issued.privateKey });
      try {
        const client = randomMac();
        const guestId = await makeGuest(t, locationId, client);
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: other.id, clientMac: client, ttlSeconds: 60 });
        const ok = await radclient(p2.udpPort, "auth", PROXY_UDP_SECRET, papRequest(other.mac, client, cred.username, cred.password), 5);
        assert.equal(ok.code, "Access-Accept", ok.output);
        const serials = await revokeDeviceCertificates(t.deps, device);
        assert.equal(closeRevokedConnections(t.deps, serials), 1, "its open connection is closed");
        const cred2 = await issueCredential(t.deps, { guestId, locationId, deviceId: other.id, clientMac: client, ttlSeconds: 60 });
        // Left to radclient's timeout: radsecproxy does not connect again within seconds of the closed
        // connection, so nothing reaches the server to count (and nothing else shows the request held).
        const refused = await radclient(p2.udpPort, "auth", PROXY_UDP_SECRET, papRequest(other.mac, client, cred2.username, cred2.password), 3);
        assert.equal(refused.code, undefined, `no answer through a revoked certificate: ${refused.output}`);
      } finally {
        await p2.stop();
      }
    });

    it("refuses radsecproxy with an expired certificate and with one from a foreign CA", async () => {
      const device = await t.db.selectFrom("devices").selectAll().where("id", "=", ap.id).executeTakeFirstOrThrow();
      const expired = await issueDeviceCertificate(t.deps, t.radiusConfig, device, { notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
      const foreignCa = await createCa("Somebody else", 10);
      const foreign = await issueCertificate(foreignCa, { commonName: ap.mac, usage: "client", notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000) });
      for (const [what, cert] of [
        ["expired", { certificate: expired.issued.certificate, privateKey: expired.issued.privateKey }],
        ["foreign", { certificate: foreign.certificate, privateKey: foreign.privateKey }],
      ] as const) {
        const counts = countsOf(t.radiusMetrics);
        const was = await counts("access");
        const p = await startRadsecproxy(t.radius.radsec!.port, { caCertificate: expired.caCertificate, ...cert });
        try {
          const client = randomMac();
          const cred = await credentialFor(client);
          const r = await radclient(p.udpPort, "auth", PROXY_UDP_SECRET, papRequest(ap.mac, client, cred.username, cred.password), 10, dropCounted(counts, was));
          assert.equal(r.code, undefined, `${what}: no answer (${r.output})`);
          assert.ok((await counts("access")).drop > was.drop, `${what}: the refused handshake was counted`);
          const used = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", cred.username).executeTakeFirstOrThrow();
          assert.equal(used.used_at, null, `${what}: the request never reached the handler`);
        } finally {
          await p.stop();
        }
      }
    });
  });
}
