/**
 * "Connect automatically" after a portal login: the connected page links to the Passpoint page of a
 * covered location; each profile download issues a credential for the guest of the device cookie;
 * the files are parsed by parsers we did not write (plist for Apple's, mailparser for Android's
 * MIME, fast-xml-parser for the PPS MO and Windows' WLAN profile); OpenSSL verifies a signed Apple
 * profile. SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { X509Certificate, createHash, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { XMLParser } from "fast-xml-parser";
import { simpleParser } from "mailparser";
import { parse as parsePlist } from "plist";
import { passwordMatches } from "../../src/modules/passpoint/passpoint-credentials.service.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { IPHONE_UA, PortalClient, type World, coovaUrl, makeWorld, randomMac, stateOf } from "./portal-world.js";

const ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const WINDOWS_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });

/** A PPS MO node's children by NodeName (fast-xml-parser gives one object or an array). */
function children(node: any): Map<string, any> {
  const list = Array.isArray(node.Node) ? node.Node : node.Node ? [node.Node] : [];
  return new Map(list.map((n: any) => [n.NodeName, n]));
}

for (const dialect of DIALECTS) {
  describe(`passpoint profiles after a portal login (${dialect})`, () => {
    let t: TestApp;
    let w: World;
    let signDir: string;
    before(async () => {
      // A signing certificate of our own for the Apple profiles (self-signed, as a test stand-in for a CA-issued one).
      signDir = mkdtempSync(join(tmpdir(), "pp-sign-"));
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      writeFileSync(join(signDir, "key.pem"), privateKey.export({ type: "pkcs8", format: "pem" }));
      execFileSync("openssl", ["req", "-new", "-x509", "-key", join(signDir, "key.pem"), "-subj", "/CN=profiles.chain.example", "-days", "2", "-out", join(signDir, "cert.pem")]);
      t = await createTestApp(dialect, { PASSPOINT_SIGNING_CERT: join(signDir, "cert.pem"), PASSPOINT_SIGNING_KEY: join(signDir, "key.pem") });
      w = await makeWorld(t);
      const res = await t.call("POST", "create-or-update-passpoint", { location_ids: `${w.locationId}`, ssid: "Chain Secure", domain: "wifi.chain.example", realm: "chain.example", roaming_consortium: "5A03BA0000,004096", friendly_name: "Chain" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
    });
    after(async () => {
      await t.close();
      rmSync(signDir, { recursive: true, force: true });
    });

    /** Logs a guest in by click-through from a CoovaChilli redirect, then comes back as Coova's success redirect does. */
    async function loggedIn(ua: string): Promise<{ client: PortalClient; connected: string; guestId: number }> {
      const client = new PortalClient(t.app, ua);
      const mac = randomMac();
      const page = await client.get(coovaUrl(w.path, { called: w.apMac, mac }));
      assert.equal(page.statusCode, 200, page.body);
      const login = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(login.statusCode, 303, login.body);
      const connected = await client.get(coovaUrl(w.path, { called: w.apMac, mac, res: "success", challenge: "" }));
      assert.equal(connected.statusCode, 200);
      const row = await t.db.selectFrom("logins").select("guest_id").where("client_mac", "=", mac).executeTakeFirstOrThrow();
      return { client, connected: connected.body, guestId: row.guest_id };
    }

    const credentialsOf = (guestId: number) => t.db.selectFrom("passpoint_credentials").selectAll().where("guest_id", "=", guestId).orderBy("id").execute();

    it("links the connected page of a covered location to its Passpoint page, and not of another", async () => {
      const { client, connected, guestId } = await loggedIn(ANDROID_UA);
      assert.match(connected, new RegExp(`href="/portal/passpoint/${w.locationId}"`));
      const page = await client.get(`/portal/passpoint/${w.locationId}`);
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.indexOf('data-platform="android"') < page.body.indexOf('data-platform="apple"'), "the device's own profile comes first");
      assert.deepEqual(await credentialsOf(guestId), [], "nothing is issued by looking");
      const stranger = await new PortalClient(t.app, ANDROID_UA).get(`/portal/passpoint/${w.locationId}`);
      assert.equal(stranger.statusCode, 403, "a browser that did not log in here gets nothing");
      assert.match(stranger.body, /Log in to the WiFi first/);
      const other = await makeWorld(t);
      const plain = new PortalClient(t.app);
      const p2 = await plain.get(coovaUrl(other.path, { called: other.apMac, mac: randomMac() }));
      await plain.post("/portal/login/clickthrough", { state: stateOf(p2.body), accept_terms: "1" });
      const c2 = await plain.get(coovaUrl(other.path, { called: other.apMac, res: "success", challenge: "" }));
      assert.doesNotMatch(c2.body, /passpoint/);
      assert.equal((await plain.get(`/portal/passpoint/${other.locationId}`)).statusCode, 404);
    });

    it("serves a signed Apple profile with the Hotspot 2.0 keys, EAP-TTLS/PAP and the CA, whose password RADIUS's hash accepts", async () => {
      const { client, guestId } = await loggedIn(IPHONE_UA);
      const page = await client.get(`/portal/passpoint/${w.locationId}`);
      assert.match(page.body, /href="\/portal\/passpoint\/\d+\/apple\.mobileconfig"/);
      const res = await t.app.inject({ method: "GET", url: `/portal/passpoint/${w.locationId}/apple.mobileconfig`, headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers["content-type"], "application/x-apple-aspen-config");
      // Signed: CMS SignedData; OpenSSL checks the signature against the signer and gives the plist back.
      const dir = mkdtempSync(join(tmpdir(), "pp-verify-"));
      writeFileSync(join(dir, "p.der"), res.rawPayload);
      const inner = execFileSync("openssl", ["smime", "-verify", "-inform", "der", "-in", join(dir, "p.der"), "-noverify"], { stdio: ["ignore", "pipe", "ignore"] }).toString("utf8");
      rmSync(dir, { recursive: true, force: true });
      const profile = parsePlist(inner) as any;
      assert.equal(profile.PayloadType, "Configuration");
      const wifi = profile.PayloadContent.find((p: any) => p.PayloadType === "com.apple.wifi.managed");
      const root = profile.PayloadContent.find((p: any) => p.PayloadType === "com.apple.security.root");
      assert.equal(wifi.IsHotspot, true);
      assert.equal(wifi.SSID_STR, "Chain Secure");
      assert.equal(wifi.DomainName, "wifi.chain.example");
      assert.deepEqual(wifi.RoamingConsortiumOIs, ["5A03BA0000", "004096"]);
      assert.deepEqual(wifi.NAIRealmNames, ["chain.example"]);
      const eap = wifi.EAPClientConfiguration;
      assert.deepEqual(eap.AcceptEAPTypes, [21]);
      assert.equal(eap.TTLSInnerAuthentication, "PAP");
      assert.deepEqual(eap.PayloadCertificateAnchorUUID, [root.PayloadUUID]);
      const ca = new X509Certificate(Buffer.from(root.PayloadContent));
      assert.ok(ca.ca, "the CA to trust");
      const [cred] = await credentialsOf(guestId);
      assert.equal(cred.username, eap.UserName);
      assert.equal(passwordMatches(cred.password_hash, eap.UserPassword), true, "the profile's password is the credential's");
    });

    it("serves Android's application/x-wifi-config: a base64 MIME multipart with the PPS MO and the CA", async () => {
      const { client, guestId } = await loggedIn(ANDROID_UA);
      const res = await client.get(`/portal/passpoint/${w.locationId}/android`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers["content-type"], "application/x-wifi-config");
      assert.equal(res.headers["content-transfer-encoding"], "base64");
      assert.equal(res.headers["content-disposition"], undefined, "Android's installer starts only without it");
      const mime = await simpleParser(Buffer.from(res.body, "base64"));
      const types = mime.attachments.map((a) => a.contentType);
      assert.deepEqual(types, ["application/x-passpoint-profile", "application/x-x509-ca-cert"]);
      const mo = xml.parse(mime.attachments[0].content.toString("utf8")).MgmtTree;
      const pps = mo.Node;
      assert.equal(pps.NodeName, "PerProviderSubscription");
      assert.equal(pps.RTProperties.Type.DDFName, "urn:wfa:mo:hotspot2dot0-perprovidersubscription:1.0");
      const i001 = children(pps).get("i001");
      const homeSp = children(children(i001).get("HomeSP"));
      assert.equal(homeSp.get("FQDN").Value, "wifi.chain.example");
      assert.equal(homeSp.get("FriendlyName").Value, "Chain");
      assert.equal(homeSp.get("RoamingConsortiumOI").Value, "5A03BA0000,004096");
      const cred = children(children(i001).get("Credential"));
      assert.equal(cred.get("Realm").Value, "chain.example");
      const up = children(cred.get("UsernamePassword"));
      const method = children(up.get("EAPMethod"));
      assert.equal(method.get("EAPType").Value, "21");
      assert.equal(method.get("InnerMethod").Value, "PAP");
      const [row] = await credentialsOf(guestId);
      assert.equal(up.get("Username").Value, row.username);
      assert.equal(passwordMatches(row.password_hash, Buffer.from(up.get("Password").Value, "base64").toString("utf8")), true, "the password is base64 in the MO");
      assert.ok(new X509Certificate(mime.attachments[1].content).ca);
    });

    it("gives Windows a WLAN profile with Hotspot2 and EAP-TTLS/PAP, and the credential on the page", async () => {
      const { client, guestId } = await loggedIn(WINDOWS_UA);
      const page = await client.get(`/portal/passpoint/${w.locationId}/windows`);
      assert.equal(page.statusCode, 200);
      const [row] = await credentialsOf(guestId);
      const password = /id="passpoint-password">([^<]+)</.exec(page.body)?.[1] ?? "";
      assert.ok(page.body.includes(row.username));
      assert.equal(passwordMatches(row.password_hash, password), true);
      const file = await client.get(`/portal/passpoint/${w.locationId}/windows-profile.xml`);
      const profile = xml.parse(file.body).WLANProfile;
      assert.equal(profile.SSIDConfig.SSID.name, "Chain Secure");
      assert.equal(profile.Hotspot2.DomainName, "wifi.chain.example");
      assert.equal(profile.Hotspot2.NAIRealm.name, "chain.example");
      assert.deepEqual(profile.Hotspot2.RoamingConsortium.OUI, ["5A03BA0000", "004096"]);
      const eap = profile.MSM.security.OneX.EAPConfig.EapHostConfig;
      assert.equal(eap.EapMethod.Type["#text"], "21");
      assert.ok("PAPAuthentication" in eap.Config.EapTtls.Phase2Authentication);
      const ca = await t.app.inject({ method: "GET", url: `/portal/passpoint/${w.locationId}/ca.cer`, headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
      assert.equal(ca.headers["content-type"], "application/x-x509-ca-cert");
      const caHash = (createHash("sha1").update(new X509Certificate(ca.rawPayload).raw).digest("hex").match(/../g) ?? []).join(" ");
      assert.equal(eap.Config.EapTtls.ServerValidation.TrustedRootCAHash, caHash);
    });

    it("keeps five valid credentials per guest: a sixth download revokes the oldest", async () => {
      const { client, guestId } = await loggedIn(ANDROID_UA);
      for (let i = 0; i < 6; i++) assert.equal((await client.get(`/portal/passpoint/${w.locationId}/android`)).statusCode, 200);
      const rows = await credentialsOf(guestId);
      assert.equal(rows.length, 6);
      assert.deepEqual(rows.map((r) => r.revoked_by), ["guest", "", "", "", "", ""]);
    });
  });
}
