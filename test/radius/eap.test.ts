/**
 * EAP-TTLS/PAP and EAP-TLS in our RADIUS server, checked by a supplicant nobody here wrote:
 * eapol_test (wpa_supplicant's EAP peer) over UDP on loopback, on SQLite and PostgreSQL. It reports
 * EAP-Success only when the server's certificate chains to the CA we publish, and compares the
 * MS-MPPE keys of the Access-Accept with the MSK it derived itself ("MPPE keys OK: 1  mismatch: 0").
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createCa, issueCertificate } from "../../src/modules/device-certificates/certificate-authority.js";
import { serviceCa } from "../../src/modules/device-certificates/device-certificates.service.js";
import { eapTrustAnchorPem } from "../../src/radius/eap/eap-certificates.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { DIALECTS } from "../helpers/db.js";
import { type EapolNetwork, eapolTest } from "./eapol-test.js";
import { type RadiusEnv, createRadiusEnv, makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";

const TLS13 = "tls_disable_tlsv1_3=0";
const TLS12_ONLY = "tls_disable_tlsv1_3=1";

for (const dialect of DIALECTS) {
  describe(`EAP with eapol_test (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    let trustAnchor: string;
    before(async () => {
      // A small fragment size: our server certificate chain goes out in several fragments.
      t = await createRadiusEnv(dialect, { EAP_FRAGMENT_SIZE: "500" });
      locationId = await makeLocation(t, { session_time_limit: 3600 });
      ap = await makeDevice(t, locationId);
      trustAnchor = await eapTrustAnchorPem(t.deps, t.radiusConfig);
    });
    after(async () => t.close());

    const credential = async (clientMac: string) => {
      const guestId = await makeGuest(t, locationId, clientMac);
      return issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac, ttlSeconds: 120 });
    };
    const run = (net: EapolNetwork, clientMac: string, reauths?: number) =>
      eapolTest(net, { port: t.radius.authPort, secret: ap.secret, apMac: ap.mac, clientMac, reauths });
    const clientCertificate = async (commonName: string, validity?: { notBefore: Date; notAfter: Date }) => {
      const ca = await serviceCa(t.db, t.radiusConfig);
      const now = Date.now();
      return issueCertificate(ca, {
        commonName,
        usage: "client",
        notBefore: validity?.notBefore ?? new Date(now - 60_000),
        notAfter: validity?.notAfter ?? new Date(now + 86_400_000),
      });
    };

    for (const [version, phase1] of [
      ["TLSv1.2", TLS12_ONLY],
      ["TLSv1.3", TLS13],
    ] as const) {
      it(`EAP-TTLS/PAP over ${version}: a portal credential gets EAP-Success, the location's options and MPPE keys that match`, async () => {
        const client = randomMac();
        const cred = await credential(client);
        const r = await run({ eap: "TTLS", identity: cred.username, password: cred.password, caCert: trustAnchor, phase1 }, client);
        assert.ok(r.success, r.output.slice(-3000));
        assert.ok(r.mppeOk, "eapol_test's MPPE check");
        assert.equal(r.tlsVersion, version);
        assert.match(r.output, /Attribute 27 \(Session-Timeout\) length=6/);
        const row = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", cred.username).executeTakeFirstOrThrow();
        assert.notEqual(row.used_at, null, "the credential is used, as by a PAP login");
      });

      it(`EAP-TLS over ${version}: a client certificate of the service CA for the credential gets EAP-Success with matching MPPE keys`, async () => {
        const client = randomMac();
        const cred = await credential(client);
        const cert = await clientCertificate(cred.username);
        const r = await run({ eap: "TLS", identity: cred.username, clientCert: cert.certificate, privateKey: cert.privateKey, caCert: trustAnchor, phase1, fragmentSize: 600 }, client);
        assert.ok(r.success, r.output.slice(-3000));
        assert.ok(r.mppeOk, "eapol_test's MPPE check");
        assert.equal(r.tlsVersion, version);
      });
    }

    it("rejects EAP-TTLS with a wrong password, and the credential stays unused", async () => {
      const client = randomMac();
      const cred = await credential(client);
      const r = await run({ eap: "TTLS", identity: cred.username, password: `${cred.password}x`, caCert: trustAnchor }, client);
      assert.equal(r.success, false);
      assert.match(r.output, /code=3 \(Access-Reject\)/);
      assert.match(r.output, /EAP Failure/);
      const row = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", cred.username).executeTakeFirstOrThrow();
      assert.equal(row.used_at, null);
    });

    it("rejects an expired client certificate, one of another CA, and one issued for another credential", async () => {
      const client = randomMac();
      const cred = await credential(client);
      const day = 86_400_000;
      const expired = await clientCertificate(cred.username, { notBefore: new Date(Date.now() - 10 * day), notAfter: new Date(Date.now() - day) });
      const foreignCa = await createCa("Somebody else's CA", 1);
      const now = Date.now();
      const foreign = await issueCertificate(foreignCa, { commonName: cred.username, usage: "client", notBefore: new Date(now - 60_000), notAfter: new Date(now + day) });
      const other = await clientCertificate("someone-else");
      for (const cert of [expired, foreign, other]) {
        const r = await run({ eap: "TLS", identity: cred.username, clientCert: cert.certificate, privateKey: cert.privateKey, caCert: trustAnchor }, client);
        assert.equal(r.success, false, cert.subject);
        assert.match(r.output, /code=3 \(Access-Reject\)/);
      }
      const row = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", cred.username).executeTakeFirstOrThrow();
      assert.equal(row.used_at, null);
    });

    it("resumes the TLS session of EAP-TLS on reauthentication (a returning guest's device, named by its MAC)", async () => {
      const client = randomMac();
      await makeGuest(t, locationId, client);
      const cert = await clientCertificate(client.replaceAll(":", "-"));
      const r = await run({ eap: "TLS", identity: client, clientCert: cert.certificate, privateKey: cert.privateKey, caCert: trustAnchor, phase1: TLS12_ONLY }, client, 1);
      assert.equal(r.successes, 2, r.output.slice(-3000));
      assert.ok(r.resumed >= 1, "the second authentication resumed the session");
      assert.ok(r.mppeOk);
    });

    it("EAP-TTLS is not resumed: the reauthentication runs the inner PAP again and succeeds (a returning guest's device, named by its MAC)", async () => {
      const client = randomMac();
      await makeGuest(t, locationId, client);
      const r = await run({ eap: "TTLS", identity: client.replaceAll(":", "-"), password: "mac-authentication", caCert: trustAnchor, phase1: TLS12_ONLY }, client, 1);
      assert.equal(r.successes, 2, r.output.slice(-3000));
      assert.equal(r.resumed, 0);
      assert.ok(r.mppeOk);
    });
  });
}
