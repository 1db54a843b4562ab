/**
 * Issue 29 point 4, end to end: a guest logs in at the portal of a location covered by Passpoint,
 * downloads the profiles, and the credentials are taken FROM THE DOWNLOADED FILES (Android's
 * application/x-wifi-config for EAP-TTLS/PAP, Apple's .mobileconfig with its PKCS#12 for EAP-TLS,
 * opened by OpenSSL); then a supplicant nobody here wrote, eapol_test, authenticates with them
 * against our RADIUS server on loopback (UDP, and over RadSec through radsecproxy): EAP-Success,
 * eapol_test's own "MPPE keys OK" check, Chargeable-User-Identity and a Passpoint login; a wrong
 * password, a revoked credential and an expired one are rejected. SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { XMLParser } from "fast-xml-parser";
import { simpleParser } from "mailparser";
import { parse as parsePlist } from "plist";
import { issueDeviceCertificate } from "../../src/modules/device-certificates/device-certificates.service.js";
import { issueTlsCredential, issueTtlsCredential } from "../../src/modules/passpoint/passpoint-credentials.service.js";
import { DIALECTS } from "../helpers/db.js";
import { IPHONE_UA, PortalClient, type World, coovaUrl, makeWorld, stateOf } from "../portal/portal-world.js";
import { type EapolNetwork, type EapolRun, eapolTest } from "./eapol-test.js";
import { type RadiusEnv, createRadiusEnv, randomMac } from "./radius-fixtures.js";
import { RADSEC_ENV } from "./radsec-fixtures.js";
import { PROXY_UDP_SECRET, type RadsecProxy, startRadsecproxy } from "./radsecproxy.js";

const ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });
const DAY = 86_400_000;

/** A PPS MO node's children by NodeName (fast-xml-parser gives one object or an array). */
function children(node: any): Map<string, any> {
  const list = Array.isArray(node.Node) ? node.Node : node.Node ? [node.Node] : [];
  return new Map(list.map((n: any) => [n.NodeName, n]));
}

function pem(der: Buffer): string {
  return new X509Certificate(der).toString();
}

/** What the Android profile gives a supplicant for EAP-TTLS/PAP. */
interface TtlsFromProfile {
  username: string;
  password: string;
  realm: string;
  caCert: string;
}

/** What the Apple profile gives a supplicant for EAP-TLS (the PKCS#12 opened by OpenSSL). */
interface TlsFromProfile {
  username: string;
  clientCert: string;
  privateKey: string;
  caCert: string;
}

async function fromAndroidProfile(body: string): Promise<TtlsFromProfile> {
  const mime = await simpleParser(Buffer.from(body, "base64"));
  const [mo, ca] = mime.attachments;
  assert.equal(mo.contentType, "application/x-passpoint-profile");
  assert.equal(ca.contentType, "application/x-x509-ca-cert");
  const i001 = children(xml.parse(mo.content.toString("utf8")).MgmtTree.Node).get("i001");
  const cred = children(children(i001).get("Credential"));
  const up = children(cred.get("UsernamePassword"));
  const method = children(up.get("EAPMethod"));
  assert.equal(method.get("EAPType").Value, "21");
  assert.equal(method.get("InnerMethod").Value, "PAP");
  return {
    username: up.get("Username").Value,
    password: Buffer.from(up.get("Password").Value, "base64").toString("utf8"),
    realm: cred.get("Realm").Value,
    caCert: pem(ca.content),
  };
}

/** The PEM certificate and key of a PKCS#12 bundle, opened by OpenSSL with `password`. */
function openPkcs12(der: Buffer, password: string): { clientCert: string; privateKey: string } {
  const dir = mkdtempSync(join(tmpdir(), "pp-p12-"));
  try {
    const p12 = join(dir, "identity.p12");
    writeFileSync(p12, der);
    const openssl = (args: string[]) => execFileSync("openssl", ["pkcs12", "-in", p12, "-passin", `pass:${password}`, ...args], { stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
    const clientCert = openssl(["-clcerts", "-nokeys"]);
    const privateKey = openssl(["-nocerts", "-nodes"]);
    assert.match(clientCert, /-----BEGIN CERTIFICATE-----/);
    assert.match(privateKey, /-----BEGIN PRIVATE KEY-----/);
    return { clientCert, privateKey };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fromAppleProfile(body: string): TlsFromProfile {
  const profile = parsePlist(body) as any;
  const wifi = profile.PayloadContent.find((p: any) => p.PayloadType === "com.apple.wifi.managed");
  const root = profile.PayloadContent.find((p: any) => p.PayloadType === "com.apple.security.root");
  const identity = profile.PayloadContent.find((p: any) => p.PayloadType === "com.apple.security.pkcs12");
  assert.deepEqual(wifi.EAPClientConfiguration.AcceptEAPTypes, [13], "EAP-TLS");
  assert.equal(wifi.PayloadCertificateUUID, identity.PayloadUUID);
  return { username: wifi.EAPClientConfiguration.UserName, ...openPkcs12(identity.PayloadContent as Buffer, identity.Password), caCert: pem(Buffer.from(root.PayloadContent)) };
}

/**
 * Android's EAP-TLS profile: the PPS MO names the certificate by its SHA-256 fingerprint, and
 * Android's installer (AOSP's hotspot2 ConfigParser.parsePkcs12) opens the PKCS#12 part with an
 * empty password, so OpenSSL must open it with one too.
 */
async function fromAndroidTlsProfile(body: string): Promise<TlsFromProfile> {
  const mime = await simpleParser(Buffer.from(body, "base64"));
  assert.deepEqual(
    mime.attachments.map((a) => a.contentType),
    ["application/x-passpoint-profile", "application/x-x509-ca-cert", "application/x-pkcs12"],
  );
  const [mo, ca, p12] = mime.attachments;
  const i001 = children(xml.parse(mo.content.toString("utf8")).MgmtTree.Node).get("i001");
  const cred = children(children(i001).get("Credential"));
  const digital = children(cred.get("DigitalCertificate"));
  assert.equal(digital.get("CertificateType").Value, "x509v3");
  const opened = openPkcs12(p12.content, "");
  const x = new X509Certificate(opened.clientCert);
  assert.equal(digital.get("CertSHA256Fingerprint").Value, x.fingerprint256.replaceAll(":", ""), "the MO names the PKCS#12's certificate");
  const username = /CN=([^\n,]+)/.exec(x.subject)?.[1] ?? "";
  return { username, ...opened, caCert: pem(ca.content) };
}

for (const dialect of DIALECTS) {
  describe(`passpoint credentials from the downloaded profiles, with eapol_test (${dialect})`, () => {
    let t: RadiusEnv;
    let ttlsWorld: World;
    let tlsWorld: World;
    let ttlsSecret: string;
    let tlsSecret: string;
    let proxy: RadsecProxy;
    before(async () => {
      t = await createRadiusEnv(dialect, RADSEC_ENV);
      ttlsWorld = await makeWorld(t);
      tlsWorld = await makeWorld(t);
      for (const [w, eap_method, realm] of [
        [ttlsWorld, "ttls", "chain.example"],
        [tlsWorld, "tls", "tls.chain.example"],
      ] as const) {
        const res = await t.call("POST", "create-or-update-passpoint", { location_ids: `${w.locationId}`, ssid: "Chain Secure", domain: `wifi.${realm}`, realm, roaming_consortium: "5A03BA0000", eap_method });
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      }
      const secretOf = async (id: number) => (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", id).executeTakeFirstOrThrow()).radius_secret;
      ttlsSecret = await secretOf(ttlsWorld.deviceId);
      tlsSecret = await secretOf(tlsWorld.deviceId);
      const device = await t.db.selectFrom("devices").selectAll().where("id", "=", ttlsWorld.deviceId).executeTakeFirstOrThrow();
      const bundle = await issueDeviceCertificate(t.deps, t.radiusConfig, device);
      proxy = await startRadsecproxy(t.radius.radsec!.port, { caCertificate: bundle.caCertificate, certificate: bundle.issued.certificate, privateKey: bundle.issued.privateKey });
    });
    after(async () => {
      await proxy?.stop();
      await t?.close();
    });

    /** Logs a guest in by click-through from a CoovaChilli redirect at `w`, as passpoint-profiles.test.ts does. */
    async function loggedIn(w: World, ua: string): Promise<{ client: PortalClient; guestId: number }> {
      const client = new PortalClient(t.app, ua);
      const mac = randomMac();
      const page = await client.get(coovaUrl(w.path, { called: w.apMac, mac }));
      assert.equal(page.statusCode, 200, page.body);
      const login = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(login.statusCode, 303, login.body);
      const connected = await client.get(coovaUrl(w.path, { called: w.apMac, mac, res: "success", challenge: "" }));
      assert.match(connected.body, new RegExp(`href="/portal/passpoint/${w.locationId}"`));
      const row = await t.db.selectFrom("logins").select("guest_id").where("client_mac", "=", mac).executeTakeFirstOrThrow();
      return { client, guestId: row.guest_id };
    }

    async function ttlsProfile(): Promise<TtlsFromProfile & { guestId: number }> {
      const { client, guestId } = await loggedIn(ttlsWorld, ANDROID_UA);
      const res = await client.get(`/portal/passpoint/${ttlsWorld.locationId}/android`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers["content-type"], "application/x-wifi-config");
      return { ...(await fromAndroidProfile(res.body)), guestId };
    }

    async function tlsProfile(): Promise<TlsFromProfile & { guestId: number }> {
      const { client, guestId } = await loggedIn(tlsWorld, IPHONE_UA);
      const res = await client.get(`/portal/passpoint/${tlsWorld.locationId}/apple.mobileconfig`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers["content-type"], "application/x-apple-aspen-config");
      return { ...fromAppleProfile(res.body), guestId };
    }

    const ttlsNet = (p: TtlsFromProfile, password = p.password): EapolNetwork => ({ eap: "TTLS", identity: p.username, anonymousIdentity: `anonymous@${p.realm}`, password, caCert: p.caCert });
    const tlsNet = (p: TlsFromProfile): EapolNetwork => ({ eap: "TLS", identity: p.username, clientCert: p.clientCert, privateKey: p.privateKey, caCert: p.caCert });
    const viaUdp = (w: World, secret: string) => (net: EapolNetwork, clientMac: string) => eapolTest(net, { port: t.radius.authPort, secret, apMac: w.apMac, clientMac });
    const ttlsRun = (net: EapolNetwork, clientMac: string) => viaUdp(ttlsWorld, ttlsSecret)(net, clientMac);
    const tlsRun = (net: EapolNetwork, clientMac: string) => viaUdp(tlsWorld, tlsSecret)(net, clientMac);

    const credentialRow = (username: string) => t.db.selectFrom("passpoint_credentials").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
    const passpointLogins = (clientMac: string) => t.db.selectFrom("logins").select(["guest_id", "login_type", "location_id"]).where("client_mac", "=", clientMac).execute();

    /** EAP-Success, eapol_test's MPPE check, the CUI of the guest's credential in the Access-Accept, a PPuser login for the guest. */
    async function assertAccepted(r: EapolRun, username: string, guestId: number, locationId: number, clientMac: string, extra = "") {
      assert.ok(r.success, `${r.output.slice(-3000)}${extra}`);
      assert.ok(r.mppeOk, "eapol_test's own check: the MPPE keys of the Access-Accept match the MSK it derived");
      const row = await credentialRow(username);
      // eapol_test dumps every attribute of the Access-Accept; CUI (RFC 4372) is type 89, printable here.
      const cui = /Attribute 89 \(Chargeable-User-Identity\) length=\d+\n\s+Value: '([^']*)'/.exec(r.output);
      assert.ok(cui, `Chargeable-User-Identity in the Access-Accept\n${r.output.slice(-3000)}`);
      assert.equal(cui[1], row.cui, "the CUI of the guest's credential");
      assert.notEqual(row.last_used_at, null, "the credential's last use is kept");
      assert.deepEqual(await passpointLogins(clientMac), [{ guest_id: guestId, login_type: "PPuser", location_id: locationId }], "a Passpoint login of the guest under the device's MAC");
    }

    it("EAP-TTLS/PAP with the username, password and CA of Android's profile: EAP-Success, MPPE keys OK, CUI and a Passpoint login", async () => {
      const p = await ttlsProfile();
      assert.match(p.username, /^pp-[a-z2-9]{16}@chain\.example$/);
      const mac = randomMac();
      const r = await ttlsRun(ttlsNet(p), mac);
      await assertAccepted(r, p.username, p.guestId, ttlsWorld.locationId, mac);
    });

    for (const [version, phase1] of [
      ["TLSv1.2", "tls_disable_tlsv1_3=1"],
      ["TLSv1.3", "tls_disable_tlsv1_3=0"],
    ] as const) {
      it(`EAP-TLS over ${version} with the PKCS#12 and CA of Apple's profile: EAP-Success, MPPE keys OK, CUI and a Passpoint login`, async () => {
        const p = await tlsProfile();
        assert.match(p.username, /^pp-[a-z2-9]{16}@tls\.chain\.example$/);
        assert.ok(new X509Certificate(p.clientCert).subject.includes(p.username), "the certificate is the credential's");
        const mac = randomMac();
        const r = await tlsRun({ ...tlsNet(p), phase1 }, mac);
        await assertAccepted(r, p.username, p.guestId, tlsWorld.locationId, mac);
        assert.equal(r.tlsVersion, version);
      });
    }

    it("EAP-TLS with the PKCS#12 and CA of Android's profile (opened with the empty password, as Android does): EAP-Success, MPPE keys OK, CUI", async () => {
      const { client, guestId } = await loggedIn(tlsWorld, ANDROID_UA);
      const res = await client.get(`/portal/passpoint/${tlsWorld.locationId}/android`);
      assert.equal(res.statusCode, 200, res.body);
      const p = await fromAndroidTlsProfile(res.body);
      assert.match(p.username, /^pp-[a-z2-9]{16}@tls\.chain\.example$/);
      const mac = randomMac();
      await assertAccepted(await tlsRun(tlsNet(p), mac), p.username, guestId, tlsWorld.locationId, mac);
    });

    it("rejects EAP-TTLS with a wrong password, and both methods once the credential is revoked through the API", async () => {
      const p = await ttlsProfile();
      const mac = randomMac();
      const wrong = await ttlsRun(ttlsNet(p, `${p.password}x`), mac);
      assert.equal(wrong.success, false);
      assert.match(wrong.output, /code=3 \(Access-Reject\)/);
      assert.deepEqual(await passpointLogins(mac), []);

      const tls = await tlsProfile();
      for (const [run, net, username] of [
        [ttlsRun, ttlsNet(p), p.username],
        [tlsRun, tlsNet(tls), tls.username],
      ] as const) {
        assert.ok((await run(net, randomMac())).success, "works before it is revoked");
        const revoke = await t.call("POST", "revoke-passpoint-credential", { credential_id: (await credentialRow(username)).id });
        assert.equal(revoke.statusCode, 200, JSON.stringify(revoke.body));
        assert.equal(revoke.body.revoked, 1);
        const mac2 = randomMac();
        const r = await run(net, mac2);
        assert.equal(r.success, false, `${username} revoked`);
        assert.match(r.output, /code=3 \(Access-Reject\)/);
        assert.deepEqual(await passpointLogins(mac2), []);
      }
    });

    it("rejects an expired EAP-TTLS credential and an expired EAP-TLS certificate (issued as the download does, 400 days ago)", async () => {
      const at = new Date(Date.now() - 400 * DAY);
      const ttlsConfig = await t.db.selectFrom("passpoint_configs").selectAll().where("ssid", "=", "Chain Secure").where("realm", "=", "chain.example").executeTakeFirstOrThrow();
      const tlsConfig = await t.db.selectFrom("passpoint_configs").selectAll().where("realm", "=", "tls.chain.example").executeTakeFirstOrThrow();
      const ttlsGuest = await loggedIn(ttlsWorld, ANDROID_UA);
      const tlsGuest = await loggedIn(tlsWorld, IPHONE_UA);
      const ttls = await issueTtlsCredential(t.deps, { accountId: t.accountId, guestId: ttlsGuest.guestId, locationId: ttlsWorld.locationId, config: ttlsConfig, at });
      const tls = await issueTlsCredential(t.deps, t.config, { accountId: t.accountId, guestId: tlsGuest.guestId, locationId: tlsWorld.locationId, config: tlsConfig, at });
      assert.ok(new Date(new X509Certificate(tls.certificate).validTo).getTime() < Date.now(), "the certificate itself is expired");
      const caCert = (await ttlsProfile()).caCert;
      const mac = randomMac();
      const r1 = await ttlsRun({ eap: "TTLS", identity: ttls.username, password: ttls.password, caCert }, mac);
      assert.equal(r1.success, false);
      assert.match(r1.output, /code=3 \(Access-Reject\)/);
      const r2 = await tlsRun({ eap: "TLS", identity: tls.username, clientCert: tls.certificate, privateKey: tls.privateKey, caCert }, mac);
      assert.equal(r2.success, false);
      assert.match(r2.output, /code=3 \(Access-Reject\)/);
      assert.deepEqual(await passpointLogins(mac), []);
    });

    it("EAP-TTLS/PAP with the Android profile's credentials over RadSec: eapol_test's UDP relayed by radsecproxy", async () => {
      const p = await ttlsProfile();
      const mac = randomMac();
      const r = await eapolTest(ttlsNet(p), { port: proxy.udpPort, secret: PROXY_UDP_SECRET, apMac: ttlsWorld.apMac, clientMac: mac });
      await assertAccepted(r, p.username, p.guestId, ttlsWorld.locationId, mac, `\n${proxy.log()}`);
      const wrong = await eapolTest(ttlsNet(p, `${p.password}x`), { port: proxy.udpPort, secret: PROXY_UDP_SECRET, apMac: ttlsWorld.apMac, clientMac: randomMac() });
      assert.equal(wrong.success, false);
      assert.match(wrong.output, /code=3 \(Access-Reject\)/);
    });

    it("EAP-TLS with the Apple profile's PKCS#12 over RadSec, from an access point of the EAP-TLS location", async () => {
      const device = await t.db.selectFrom("devices").selectAll().where("id", "=", tlsWorld.deviceId).executeTakeFirstOrThrow();
      const bundle = await issueDeviceCertificate(t.deps, t.radiusConfig, device);
      const tlsProxy = await startRadsecproxy(t.radius.radsec!.port, { caCertificate: bundle.caCertificate, certificate: bundle.issued.certificate, privateKey: bundle.issued.privateKey });
      try {
        const p = await tlsProfile();
        const mac = randomMac();
        const r = await eapolTest(tlsNet(p), { port: tlsProxy.udpPort, secret: PROXY_UDP_SECRET, apMac: tlsWorld.apMac, clientMac: mac });
        await assertAccepted(r, p.username, p.guestId, tlsWorld.locationId, mac, `\n${tlsProxy.log()}`);
      } finally {
        await tlsProxy.stop();
      }
    });
  });
}
