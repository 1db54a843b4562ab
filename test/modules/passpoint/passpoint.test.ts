/**
 * Passpoint through the API (create-or-update-passpoint, passpoint-list, credentials, revocation,
 * scope, audit) and through RADIUS: the real radclient sends the plain PAP Access-Request an
 * EAP-TTLS/PAP inner authentication becomes, on SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { findPasspointCertificate, issueTlsCredential, issueTtlsCredential } from "../../../src/modules/passpoint/passpoint-credentials.service.js";
import { DIALECTS } from "../../helpers/db.js";
import { subUserParams } from "../../helpers/sub-users.js";
import { radclient } from "../../radius/radclient.js";
import { type RadiusEnv, createRadiusEnv, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "../../radius/radius-fixtures.js";

const OPTIONS = { session_time_limit: 3600, max_bandwidth_up: 125_000, max_bandwidth_down: 250_000, daily_bandwidth_cap: 500_000_000 };

for (const dialect of DIALECTS) {
  describe(`passpoint (${dialect})`, () => {
    let t: RadiusEnv;
    let locA: number;
    let locB: number;
    let uncovered: number;
    let ap: { id: number; mac: string; secret: string };
    let apUncovered: { id: number; mac: string; secret: string };
    let passpointId: number;
    before(async () => {
      t = await createRadiusEnv(dialect);
      locA = await makeLocation(t, OPTIONS);
      locB = await makeLocation(t, OPTIONS);
      uncovered = await makeLocation(t, OPTIONS);
      ap = await makeDevice(t, locA);
      apUncovered = await makeDevice(t, uncovered);
      const res = await t.call("POST", "create-or-update-passpoint", {
        location_ids: `${locA},${locB}`,
        ssid: "Chain Secure",
        domain: "WiFi.Chain.Example",
        realm: "chain.example",
        roaming_consortium: "5a-03-ba-00-00, 004096",
      });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      passpointId = res.body.passpoint_id;
    });
    after(async () => t.close());

    // 5 s: a first login on a fresh PostgreSQL database prepares its statements, on a busy machine.
    const auth = (lines: string[], secret = ap.secret) => radclient(t.radius.authPort, "auth", secret, lines, 5);
    const configRow = () => t.db.selectFrom("passpoint_configs").selectAll().where("id", "=", passpointId).executeTakeFirstOrThrow();
    const issue = async (guestId: number, at?: Date) => issueTtlsCredential(t.deps, { accountId: t.accountId, guestId, locationId: locA, config: await configRow(), at });

    it("creates, lists and updates a configuration, normalising the domain, realm and OIs, and audits the writes", async () => {
      const list = await t.call("GET", "passpoint-list");
      assert.equal(list.statusCode, 200);
      const [c] = list.body.data.filter((x: { id: number }) => x.id === passpointId);
      assert.deepEqual(
        { ...c, date_created: undefined, last_modified: undefined },
        {
          id: passpointId,
          passpoint_id: passpointId,
          location_ids: [locA, locB],
          ssid: "Chain Secure",
          domain: "wifi.chain.example",
          realm: "chain.example",
          roaming_consortium: "5A03BA0000,004096",
          friendly_name: "Chain Secure",
          eap_method: "ttls",
          credential_days: 365,
          date_created: undefined,
          last_modified: undefined,
        },
      );
      const other = await t.call("POST", "create-or-update-passpoint", { location_ids: `${locB}`, ssid: "B only", domain: "b.example", realm: "b.example" });
      assert.equal(other.statusCode, 200, JSON.stringify(other.body));
      const after = await t.call("GET", "passpoint-list");
      const byId = new Map(after.body.data.map((x: { id: number; location_ids: number[] }) => [x.id, x.location_ids]));
      assert.deepEqual(byId.get(passpointId), [locA], "a location is covered by one configuration: naming it elsewhere takes it");
      assert.deepEqual(byId.get(other.body.passpoint_id), [locB]);
      const back = await t.call("POST", "create-or-update-passpoint", { passpoint_id: passpointId, location_ids: `${locA},${locB}`, ssid: "Chain Secure", domain: "wifi.chain.example", realm: "chain.example", credential_days: 30 });
      assert.equal(back.statusCode, 200, JSON.stringify(back.body));
      assert.equal(back.body.data.roaming_consortium, "5A03BA0000,004096", "OIs not given keep their value");
      assert.equal(back.body.data.credential_days, 30);
      const audit = await t.db.selectFrom("audit_log").select(["action", "objects"]).where("account_id", "=", t.accountId).where("action", "=", "create-or-update-passpoint").execute();
      assert.equal(audit.length, 3);
      assert.ok(audit.some((a) => JSON.parse(a.objects).passpoint_id?.includes(passpointId)));
      await t.call("POST", "create-or-update-passpoint", { passpoint_id: passpointId, location_ids: `${locA},${locB}`, ssid: "Chain Secure", domain: "wifi.chain.example", realm: "chain.example", credential_days: 365 });
    });

    it("reports every bad parameter at once", async () => {
      const res = await t.call("POST", "create-or-update-passpoint", {
        location_ids: `${locA},999999`,
        ssid: "x".repeat(33),
        domain: "localhost",
        realm: "not a realm",
        roaming_consortium: "004096,5A03BA00",
        eap_method: "peap",
        credential_days: 0,
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.body.message).sort(), ["credential_days", "domain", "eap_method", "location_ids", "realm", "roaming_consortium", "ssid"]);
      assert.match(res.body.message.roaming_consortium[0], /"5A03BA00" must be 3 or 5 octets/);
      const missing = await t.call("POST", "create-or-update-passpoint", {});
      assert.deepEqual(Object.keys(missing.body.message).sort(), ["domain", "location_ids", "realm", "ssid"]);
      const other = await t.newAccount();
      const foreign = await t.call("POST", "create-or-update-passpoint", { passpoint_id: passpointId, location_ids: `${locA}`, ssid: "x", domain: "a.example", realm: "a.example" }, { identifier: other.identifier });
      assert.equal(foreign.statusCode, 400);
      assert.deepEqual(Object.keys(foreign.body.message).sort(), ["location_ids", "passpoint_id"]);
    });

    it("keeps a scoped sub-user to its locations, and a read-only one to reading", async () => {
      const scoped = await t.call("POST", "create-sub-user", subUserParams(locA, { location_ids: `${locB}` }));
      assert.equal(scoped.statusCode, 200, JSON.stringify(scoped.body));
      const as = { identifier: scoped.body.identifier as string };
      const list = await t.call("GET", "passpoint-list", {}, as);
      const mine = list.body.data.find((x: { id: number }) => x.id === passpointId);
      assert.deepEqual(mine.location_ids, [locB], "only its own locations are shown");
      const write = await t.call("POST", "create-or-update-passpoint", { passpoint_id: passpointId, location_ids: `${locB}`, ssid: "x", domain: "a.example", realm: "a.example" }, as);
      assert.equal(write.statusCode, 400, "a configuration covering a location out of its scope is not its to change");
      assert.deepEqual(Object.keys(write.body.message), ["passpoint_id"]);
      const readonly = await t.call("POST", "create-sub-user", subUserParams(locA, { readonly: "1" }));
      const ro = await t.call("POST", "create-or-update-passpoint", { location_ids: `${locA}`, ssid: "x", domain: "a.example", realm: "a.example" }, { identifier: readonly.body.identifier });
      assert.equal(ro.statusCode, 400);
      assert.deepEqual(ro.body.message, { identifier: ["This identifier is read-only."] });
    });

    it("accepts a Passpoint credential over PAP with the location's options and Chargeable-User-Identity, and records a PPuser login of the same guest", async () => {
      const mac1 = randomMac();
      const guestId = await makeGuest(t, locA, mac1);
      const cred = await issue(guestId);
      assert.match(cred.username, /^pp-[a-z2-9]{16}@chain\.example$/);
      const stored = await t.db.selectFrom("passpoint_credentials").selectAll().where("id", "=", cred.id).executeTakeFirstOrThrow();
      assert.ok(!stored.password_hash.includes(cred.password), "only a hash is kept");
      const mac2 = randomMac();
      const r = await auth(papRequest(ap.mac, mac2, cred.username, cred.password));
      assert.equal(r.code, "Access-Accept", r.output);
      assert.equal(r.attributes["Session-Timeout"], "3600");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Down"], "2000000");
      // radclient prints it as octets (FreeRADIUS's dictionary.rfc4372).
      assert.equal(r.attributes["Chargeable-User-Identity"], `0x${Buffer.from(stored.cui).toString("hex")}`);
      assert.match(stored.cui, /^[0-9a-f]{32}$/);
      const logins = await t.db.selectFrom("logins").select(["guest_id", "login_type", "client_mac", "device_id"]).where("login_type", "=", "PPuser").where("client_mac", "=", mac2).execute();
      assert.deepEqual(logins, [{ guest_id: guestId, login_type: "PPuser", client_mac: mac2, device_id: ap.id }], "the login is the guest's, under its new MAC");
      const again = await auth(papRequest(ap.mac, mac2, cred.username, cred.password));
      assert.equal(again.code, "Access-Accept", "a Passpoint credential is not one-time");
      const count = await t.db.selectFrom("logins").select((eb) => eb.fn.countAll<number>().as("n")).where("login_type", "=", "PPuser").where("guest_id", "=", guestId).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1, "one login per guest, location and day, however often the device re-authenticates");
      const second = await issue(guestId);
      const row2 = await t.db.selectFrom("passpoint_credentials").select("cui").where("id", "=", second.id).executeTakeFirstOrThrow();
      assert.equal(row2.cui, stored.cui, "every credential of a guest carries its one CUI");
    });

    it("rejects a wrong password, a revoked or expired credential, another location, another account's access point and CHAP", async () => {
      const mac = randomMac();
      const guestId = await makeGuest(t, locA, mac);
      const cred = await issue(guestId);
      assert.equal((await auth(papRequest(ap.mac, mac, cred.username, `${cred.password}x`))).code, "Access-Reject");
      assert.equal((await auth(papRequest(apUncovered.mac, mac, cred.username, cred.password), apUncovered.secret)).code, "Access-Reject", "not offered at this location");
      const other = await t.newAccount();
      const foreignLoc = await makeLocation({ ...t, accountId: other.accountId, identifier: other.identifier, call: (m, p, params, o) => t.call(m, p, params, { identifier: other.identifier, ...o }) }, OPTIONS);
      const foreignAp = await makeDevice(t, foreignLoc, other.accountId);
      assert.equal((await auth(papRequest(foreignAp.mac, mac, cred.username, cred.password), foreignAp.secret)).code, "Access-Reject", "another account's access point");
      const chap = await auth([`User-Name = "${cred.username}"`, `CHAP-Password = "${cred.password}"`, `Called-Station-Id = "${ap.mac.replace(/:/g, "-")}:x"`, `Calling-Station-Id = "${mac.replace(/:/g, "-")}"`, "Message-Authenticator = 0x00"]);
      assert.equal(chap.code, "Access-Reject", "CHAP cannot be checked against a hash");
      assert.equal((await auth(papRequest(ap.mac, mac, cred.username, cred.password))).code, "Access-Accept");

      const revoke = await t.call("POST", "revoke-passpoint-credential", { credential_id: cred.id });
      assert.equal(revoke.statusCode, 200, JSON.stringify(revoke.body));
      assert.equal(revoke.body.revoked, 1);
      assert.equal((await auth(papRequest(ap.mac, mac, cred.username, cred.password))).code, "Access-Reject", "revoked");

      const old = await issue(guestId, new Date(Date.now() - 400 * 86_400_000));
      assert.equal((await auth(papRequest(ap.mac, mac, old.username, old.password))).code, "Access-Reject", "expired");
      const list = await t.call("GET", "passpoint-credential-list", { user_id: guestId });
      assert.equal(list.statusCode, 200);
      const states = new Map(list.body.data.map((c: { credential_id: number; state: string; revoked_by: string }) => [c.credential_id, `${c.state}/${c.revoked_by}`]));
      assert.equal(states.get(cred.id), "revoked/api");
      assert.equal(states.get(old.id), "expired/");
      assert.ok(!JSON.stringify(list.body).includes(cred.password));
    });

    it("revokes every credential of a guest by user_id, and erasure deletes them", async () => {
      const mac = randomMac();
      const guestId = await makeGuest(t, locA, mac);
      const a = await issue(guestId);
      const b = await issue(guestId);
      const bad = await t.call("POST", "revoke-passpoint-credential", { credential_id: a.id, user_id: guestId });
      assert.equal(bad.statusCode, 400);
      const res = await t.call("POST", "revoke-passpoint-credential", { user_id: guestId });
      assert.equal(res.body.revoked, 2);
      assert.equal((await auth(papRequest(ap.mac, mac, b.username, b.password))).code, "Access-Reject");

      const guest2 = await makeGuest(t, locA, randomMac());
      const c = await issue(guest2);
      assert.equal((await auth(papRequest(ap.mac, mac, c.username, c.password))).code, "Access-Accept");
      const erased = await t.call("POST", "erase-social-user", { user_id: guest2 });
      assert.equal(erased.statusCode, 200, JSON.stringify(erased.body));
      assert.equal((await auth(papRequest(ap.mac, mac, c.username, c.password))).code, "Access-Reject", "erased");
      const left = await t.db.selectFrom("passpoint_credentials").select("id").where("guest_id", "=", guest2).execute();
      assert.deepEqual(left, []);
    });

    it("finds an EAP-TLS certificate's guest by serial and fingerprint, and not once revoked or expired", async () => {
      const guestId = await makeGuest(t, locA, randomMac());
      const config = await configRow();
      const tls = await issueTlsCredential(t.deps, t.config, { accountId: t.accountId, guestId, locationId: locA, config });
      const x = new X509Certificate(tls.certificate);
      assert.equal(x.subject.includes(tls.username), true);
      assert.ok(x.checkIssued(new X509Certificate(tls.caCertificate)));
      const found = await findPasspointCertificate(t.db, { fingerprint256: x.fingerprint256, serialNumber: x.serialNumber });
      assert.equal(found?.guestId, guestId);
      assert.equal(found?.kind, "tls");
      assert.equal(await findPasspointCertificate(t.db, { fingerprint256: "AA:BB", serialNumber: x.serialNumber }), null, "the fingerprint must match too");
      assert.equal(await findPasspointCertificate(t.db, { fingerprint256: x.fingerprint256, serialNumber: x.serialNumber }, new Date(Date.now() + 400 * 86_400_000)), null, "expired");
      await t.call("POST", "revoke-passpoint-credential", { credential_id: tls.id });
      assert.equal(await findPasspointCertificate(t.db, { fingerprint256: x.fingerprint256, serialNumber: x.serialNumber }), null, "revoked");
    });

    it("deletes a configuration: its credentials stop working", async () => {
      const loc = await makeLocation(t, OPTIONS);
      const dev = await makeDevice(t, loc);
      const made = await t.call("POST", "create-or-update-passpoint", { location_ids: `${loc}`, ssid: "Gone", domain: "gone.example", realm: "gone.example" });
      const id = made.body.passpoint_id;
      const guestId = await makeGuest(t, loc, randomMac());
      const config = await t.db.selectFrom("passpoint_configs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const cred = await issueTtlsCredential(t.deps, { accountId: t.accountId, guestId, locationId: loc, config });
      const mac = randomMac();
      assert.equal((await auth(papRequest(dev.mac, mac, cred.username, cred.password), dev.secret)).code, "Access-Accept");
      const del = await t.call("POST", "delete-passpoint", { passpoint_id: id });
      assert.equal(del.statusCode, 200);
      assert.equal((await auth(papRequest(dev.mac, mac, cred.username, cred.password), dev.secret)).code, "Access-Reject");
    });
  });
}
