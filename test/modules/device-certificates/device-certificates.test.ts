/** issue-, revoke-device-certificate, device-certificate-list, radsec-ca-certificate through the API, on both databases. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { X509Certificate, createPrivateKey, createPublicKey } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeSubUser } from "../../helpers/sub-users.js";

let macCounter = 0;
function freshMac(): string {
  const n = (Date.now() * 1000 + ++macCounter) % 2 ** 40;
  return `06:${n.toString(16).padStart(10, "0").match(/../g)!.join(":")}`;
}

for (const dialect of DIALECTS) {
  describe(`device certificates (${dialect})`, () => {
    let t: TestApp;
    let deviceId: number;
    before(async () => {
      t = await createTestApp(dialect);
      deviceId = (await t.call("POST", "create-device", { device_name: "Gateway", model_id: "openwrt-generic", mac_address: freshMac() })).body.device_id;
    });
    after(async () => t.close());

    it("issues a client certificate chained to the CA, with its key once and a PKCS#12 that openssl opens", async () => {
      const res = await t.call("POST", "issue-device-certificate", { device_id: deviceId });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      const d = res.body.data;
      const cert = new X509Certificate(d.certificate);
      const ca = new X509Certificate(d.ca_certificate);
      assert.ok(cert.verify(ca.publicKey), "signed by the CA");
      assert.ok(cert.checkIssued(ca));
      assert.ok(ca.ca && !cert.ca);
      assert.ok(cert.checkPrivateKey(createPrivateKey(d.private_key)), "the key is the certificate's");
      assert.equal(cert.serialNumber.toUpperCase(), d.serial);
      assert.deepEqual(cert.keyUsage, ["1.3.6.1.5.5.7.3.2"], "extended key usage: TLS client");
      assert.match(d.not_after, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const ca2 = await t.call("GET", "radsec-ca-certificate");
      assert.equal(ca2.body.data.ca_certificate, d.ca_certificate, "one CA for the service");

      const dir = mkdtempSync(join(tmpdir(), "p12-"));
      try {
        writeFileSync(join(dir, "d.p12"), Buffer.from(d.pkcs12, "base64"));
        const out = execFileSync("openssl", ["pkcs12", "-in", join(dir, "d.p12"), "-passin", `pass:${d.pkcs12_password}`, "-nodes", "-legacy"], { encoding: "utf8" });
        const certs = out.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
        assert.equal(certs.length, 2, "the certificate and the CA");
        assert.ok(certs.some((c) => new X509Certificate(c).fingerprint256 === cert.fingerprint256));
        const key = out.match(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/)![0];
        assert.equal(createPublicKey(key).export({ format: "pem", type: "spki" }), cert.publicKey.export({ format: "pem", type: "spki" }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      const list = await t.call("GET", "device-certificate-list", { device_id: deviceId });
      const row = list.body.data.find((c: { serial: string }) => c.serial === d.serial);
      assert.equal(row.state, "valid");
      assert.equal(row.revoked_at, null);
      assert.equal(JSON.stringify(list.body).includes("PRIVATE KEY"), false, "the key is never shown again");
      const stored = await t.db.selectFrom("device_certificates").selectAll().execute();
      assert.equal(JSON.stringify(stored).includes("PRIVATE KEY"), false, "nor stored");
      const sealed = await t.db.selectFrom("certificate_authorities").select("sealed_key").executeTakeFirstOrThrow();
      assert.match(sealed.sealed_key, /^v1\./, "the CA's key is sealed");
    });

    it("revokes every valid certificate of the device; a second revoke finds none", async () => {
      await t.call("POST", "issue-device-certificate", { device_id: deviceId });
      const before = (await t.call("GET", "device-certificate-list", { device_id: deviceId })).body.data.filter((c: { state: string }) => c.state === "valid").length;
      assert.ok(before >= 1);
      const res = await t.call("POST", "revoke-device-certificate", { device_id: deviceId });
      assert.equal(res.statusCode, 200);
      assert.equal(res.body.revoked, before);
      const list = await t.call("GET", "device-certificate-list", { device_id: deviceId });
      assert.ok(list.body.data.every((c: { state: string; revoked_at: string | null }) => c.state === "revoked" && c.revoked_at !== null));
      assert.equal((await t.call("POST", "revoke-device-certificate", { device_id: deviceId })).body.revoked, 0);
    });

    it("refuses another account's device, an unknown one and a missing one like any other id; read-only sub-users may not issue", async () => {
      const other = await t.newAccount();
      const foreign = (await t.call("POST", "create-device", { device_name: "Theirs", model_id: "openwrt-generic", mac_address: freshMac() }, { identifier: other.identifier })).body.device_id;
      for (const path of ["issue-device-certificate", "revoke-device-certificate"]) {
        for (const id of [foreign, 999999]) {
          const res = await t.call("POST", path, { device_id: id });
          assert.equal(res.statusCode, 400);
          assert.deepEqual(res.body, { status: "error", message: { device_id: ["The selected device_id is invalid."] } });
        }
        const missing = await t.call("POST", path, {});
        assert.deepEqual(missing.body.message, { device_id: ["The device_id field is required."] });
      }
      const list = await t.call("GET", "device-certificate-list", { device_id: foreign });
      assert.equal(list.statusCode, 400);
      assert.equal(await t.db.selectFrom("device_certificates").select("id").where("device_id", "=", foreign).executeTakeFirst(), undefined, "nothing issued");
      const ro = await makeSubUser(t, { readonly: true });
      const refused = await t.call("POST", "issue-device-certificate", { device_id: deviceId }, { identifier: ro.identifier });
      assert.deepEqual(refused.body.message, { identifier: ["This identifier is read-only."] });
    });
  });
}
