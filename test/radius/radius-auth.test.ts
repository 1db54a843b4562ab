/** Access-Requests from the real radclient to our server on loopback, on SQLite and PostgreSQL. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { OTHER_CONNECTION_POLL_MS, createDatabase } from "../../src/db/database.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "./radius-fixtures.js";
import { countsOf, radclientCounted } from "./radius-counts.js";

const OPTIONS = { session_time_limit: 3600, max_bandwidth_up: 125_000, max_bandwidth_down: 250_000, daily_bandwidth_cap: 500_000_000 };

for (const dialect of DIALECTS) {
  describe(`radius authentication (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    before(async () => {
      t = await createRadiusEnv(dialect, { RADIUS_RETURNING_GUEST_DAYS: "30" });
      locationId = await makeLocation(t, OPTIONS);
      ap = await makeDevice(t, locationId);
    });
    after(async () => t.close());

    const credentialFor = async (clientMac: string, overrides: { ttlSeconds?: number; at?: Date; deviceId?: number | null } = {}) => {
      const guestId = await makeGuest(t, locationId, clientMac);
      const cred = await issueCredential(t.deps, {
        guestId,
        locationId,
        deviceId: overrides.deviceId === undefined ? ap.id : overrides.deviceId,
        clientMac,
        ttlSeconds: overrides.ttlSeconds ?? 60,
        at: overrides.at,
      });
      return { ...cred, guestId };
    };
    const auth = (lines: string[], secret = ap.secret, port = t.radius.authPort) => radclient(port, "auth", secret, lines);

    it("accepts a fresh PAP credential once, with the location's options as attributes", async () => {
      const client = randomMac();
      const cred = await credentialFor(client);
      const before = await t.db.selectFrom("devices").select("last_heard_at").where("id", "=", ap.id).executeTakeFirstOrThrow();
      assert.equal(before.last_heard_at, null);
      const r = await auth(papRequest(ap.mac, client, cred.username, cred.password));
      assert.equal(r.code, "Access-Accept", r.output);
      assert.match(r.attributes["Message-Authenticator"], /^0x[0-9a-f]{32}$/);
      assert.equal(r.attributes["Session-Timeout"], "3600");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Up"], "1000000", "125000 bytes/s = 1 Mbit/s");
      assert.equal(r.attributes["WISPr-Bandwidth-Max-Down"], "2000000");
      assert.equal(r.attributes["ChilliSpot-Max-Total-Octets"], "500000000");
      assert.equal(r.attributes["Acct-Interim-Interval"], "120");
      assert.ok(r.output.indexOf("Message-Authenticator = 0x") < r.output.indexOf("Session-Timeout"), "Message-Authenticator comes first");
      const row = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", cred.username).executeTakeFirstOrThrow();
      assert.match(row.used_at ?? "", /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const heard = await t.db.selectFrom("devices").select("last_heard_at").where("id", "=", ap.id).executeTakeFirstOrThrow();
      assert.notEqual(heard.last_heard_at, null, "the access point is now heard from");

      const again = await auth(papRequest(ap.mac, client, cred.username, cred.password));
      assert.equal(again.code, "Access-Reject", "a credential is accepted once");
    });

    it("accepts CHAP, with the authenticator or a CHAP-Challenge, and finds the AP by NAS-Identifier", async () => {
      for (const challenge of [[], ["CHAP-Challenge = 0x5f3c0a1b2c3d4e5f60718293a4b5c6d7"]]) {
        const client = randomMac();
        const cred = await credentialFor(client);
        const r = await auth([
          `User-Name = "${cred.username}"`,
          `CHAP-Password = "${cred.password}"`,
          ...challenge,
          `NAS-Identifier = "${dashed(ap.mac)}"`,
          `Calling-Station-Id = "${dashed(client)}"`,
          "Message-Authenticator = 0x00",
        ]);
        assert.equal(r.code, "Access-Accept", r.output);
      }
    });

    it("lets only one of two simultaneous requests use a credential", async () => {
      const client = randomMac();
      const cred = await credentialFor(client);
      const lines = papRequest(ap.mac, client, cred.username, cred.password);
      const results = await Promise.all([auth(lines), auth(lines), auth(lines)]);
      assert.deepEqual(results.map((r) => r.code).sort(), ["Access-Accept", "Access-Reject", "Access-Reject"]);
    });

    it("rejects an expired credential, a wrong password (without using it up) and other clients or access points", async () => {
      const client = randomMac();
      const old = await credentialFor(client, { ttlSeconds: 10, at: new Date(Date.now() - 60_000) });
      assert.equal((await auth(papRequest(ap.mac, client, old.username, old.password))).code, "Access-Reject");

      const cred = await credentialFor(client);
      assert.equal((await auth(papRequest(ap.mac, client, cred.username, "wrong-password!!"))).code, "Access-Reject");
      assert.equal((await auth(papRequest(ap.mac, randomMac(), cred.username, cred.password))).code, "Access-Reject", "another client MAC");
      const otherAp = await makeDevice(t, locationId);
      assert.equal((await auth(papRequest(otherAp.mac, client, cred.username, cred.password), otherAp.secret)).code, "Access-Reject", "another AP");
      assert.equal((await auth(papRequest(ap.mac, client, cred.username, cred.password))).code, "Access-Accept", "still unused");

      const elsewhere = await makeDevice(t, await makeLocation(t));
      const anyAp = await credentialFor(client, { deviceId: null });
      const r = await auth(papRequest(elsewhere.mac, client, anyAp.username, anyAp.password), elsewhere.secret);
      assert.equal(r.code, "Access-Reject", "issued for another location");
    });

    it("never answers a wrong secret, an unknown access point or a request without Message-Authenticator", async () => {
      const client = randomMac();
      const cred = await credentialFor(client);
      const lines = papRequest(ap.mac, client, cred.username, cred.password);
      // Each is proven dropped by the server's own count (each request read is counted once, as
      // dropped or with its answer's outcome), not by waiting out radclient's timeout.
      const dropped = async (request: string[], secret = ap.secret) => {
        const r = await radclientCounted(countsOf(t.radiusMetrics), t.radius.authPort, "auth", secret, request);
        assert.deepEqual(r.counted, { drop: 1, error: 0, other: 0 }, "counted as dropped");
        return r.code;
      };
      assert.equal(await dropped(lines, "not-the-secret"), undefined);
      assert.equal(await dropped(papRequest(randomMac(), client, cred.username, cred.password)), undefined);
      assert.equal(await dropped(papRequest(ap.mac, client, cred.username, cred.password, false)), undefined);
      assert.equal((await auth(lines)).code, "Access-Accept", "none of those used the credential up");
    });

    it("applies a rotated secret and changed options from the next packet, however soon after the change", async () => {
      // The access point's look-up is kept until the catalogue changes, not for a fixed time: with a
      // 5-second cache the new secret's request below was dropped and the old one still accepted.
      const loc = await makeLocation(t, { session_time_limit: 3600 });
      const dev = await makeDevice(t, loc);
      const pap = async () => {
        const client = randomMac();
        const guestId = await makeGuest(t, loc, client);
        const cred = await issueCredential(t.deps, { guestId, locationId: loc, deviceId: dev.id, clientMac: client, ttlSeconds: 60 });
        return papRequest(dev.mac, client, cred.username, cred.password);
      };
      const first = await auth(await pap(), dev.secret);
      assert.equal(first.code, "Access-Accept", first.output);
      assert.equal(first.attributes["Session-Timeout"], "3600");

      const secret = `rotated-${randomMac().replace(/:/g, "")}`;
      const rotated = await t.call("POST", "rotate-device-secret", { device_id: dev.id, radius_secret: secret });
      assert.equal(rotated.statusCode, 200, JSON.stringify(rotated.body));
      const options = await t.deps.repos.locations.findOptions(t.db, loc);
      assert.ok(options);
      await t.deps.repos.locations.upsertOptions(t.db, { ...options, session_time_limit: 1800 });

      const next = await auth(await pap(), secret);
      assert.equal(next.code, "Access-Accept", next.output);
      assert.equal(next.attributes["Session-Timeout"], "1800", "the new options");
      const old = await radclientCounted(countsOf(t.radiusMetrics), t.radius.authPort, "auth", dev.secret, await pap());
      assert.deepEqual(old.counted, { drop: 1, error: 0, other: 0 }, "the old secret is dropped at once");
    });

    it("answers requests without Message-Authenticator only when configured to", async () => {
      let lenient: RadiusListener | undefined;
      try {
        const config = loadConfig({ RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0", RADIUS_REQUIRE_MESSAGE_AUTHENTICATOR: "false" });
        lenient = await startRadius({ db: t.db, config, log: t.app.log });
        const client = randomMac();
        const cred = await credentialFor(client);
        const r = await auth(papRequest(ap.mac, client, cred.username, cred.password, false), ap.secret, lenient.authPort);
        assert.equal(r.code, "Access-Accept", r.output);
        assert.ok(r.attributes["Message-Authenticator"], "the reply still carries one");
      } finally {
        await lenient?.stop();
      }
    });

    it("rejects everyone at an access point without a live location", async () => {
      const client = randomMac();
      const cred = await credentialFor(client, { deviceId: null });
      const loose = await makeDevice(t, null);
      const r = await auth(papRequest(loose.mac, client, cred.username, cred.password), loose.secret);
      assert.equal(r.code, "Access-Reject");
      assert.equal(r.attributes["Reply-Message"], "This access point is not assigned to a location.");

      const doomed = await makeLocation(t);
      const apThere = await makeDevice(t, doomed);
      await t.db.updateTable("locations").set({ deleted: 1 }).where("id", "=", doomed).execute();
      assert.equal((await auth(papRequest(apThere.mac, client, cred.username, cred.password), apThere.secret)).code, "Access-Reject");
    });

    it("lets a returning guest in by MAC (a visit, not a login) within the configured days", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const logins = async () => Number((await t.db.selectFrom("logins").select((eb) => eb.fn.countAll().as("n")).where("guest_id", "=", guestId).executeTakeFirstOrThrow()).n);
      const before = await logins();
      // Visits are distinct guests per day: clear the portal login's visit to see RADIUS count it again.
      await t.db.deleteFrom("daily_visitors").where("guest_id", "=", guestId).execute();
      const visitorRows = () => t.db.selectFrom("daily_visitors").selectAll().where("guest_id", "=", guestId).execute();
      assert.equal((await visitorRows()).length, 0);

      const mac = dashed(client);
      const r = await auth([`User-Name = "${mac}"`, `User-Password = "${mac}"`, `Called-Station-Id = "${dashed(ap.mac)}:Guest"`, `Calling-Station-Id = "${mac}"`, "Message-Authenticator = 0x00"]);
      assert.equal(r.code, "Access-Accept", r.output);
      assert.equal(r.attributes["Session-Timeout"], "3600");
      assert.equal(await logins(), before, "not a login");
      assert.equal((await visitorRows()).length, 1, "a visit");

      const spoof = await auth([`User-Name = "${mac}"`, `User-Password = "x"`, `Called-Station-Id = "${dashed(ap.mac)}"`, `Calling-Station-Id = "${dashed(randomMac())}"`, "Message-Authenticator = 0x00"]);
      assert.equal(spoof.code, "Access-Reject", "User-Name must be the MAC the gateway saw");

      const stranger = dashed(randomMac());
      const unknown = await auth([`User-Name = "${stranger}"`, `User-Password = "${stranger}"`, `Called-Station-Id = "${dashed(ap.mac)}"`, `Calling-Station-Id = "${stranger}"`, "Message-Authenticator = 0x00"]);
      assert.equal(unknown.code, "Access-Reject");

      const longAgo = randomMac();
      await makeGuest(t, locationId, longAgo, new Date(Date.now() - 31 * 86_400_000));
      const stale = dashed(longAgo);
      const r2 = await auth([`User-Name = "${stale}"`, `User-Password = "password"`, `Called-Station-Id = "${dashed(ap.mac)}"`, `Calling-Station-Id = "${stale}"`, "Message-Authenticator = 0x00"]);
      assert.equal(r2.code, "Access-Reject", "last portal login 31 days ago, window is 30");
    });

    it("reports what is left of today's cap and rejects a guest who has spent it", async () => {
      const client = randomMac();
      const cred = await credentialFor(client);
      const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date());
      await t.db.insertInto("daily_usage").values({ guest_id: cred.guestId, location_id: locationId, day, octets: 300_000_000 }).execute();
      const r = await auth(papRequest(ap.mac, client, cred.username, cred.password));
      assert.equal(r.code, "Access-Accept", r.output);
      assert.equal(r.attributes["ChilliSpot-Max-Total-Octets"], "200000000");

      await t.db.updateTable("daily_usage").set({ octets: 500_000_000 }).where("guest_id", "=", cred.guestId).execute();
      const next = await issueCredential(t.deps, { guestId: cred.guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
      const spent = await auth(papRequest(ap.mac, client, next.username, next.password));
      assert.equal(spent.code, "Access-Reject");
      assert.equal(spent.attributes["Reply-Message"], "Your data allowance at this location for today is used up.");
      const unused = await t.db.selectFrom("portal_credentials").select("used_at").where("username", "=", next.username).executeTakeFirstOrThrow();
      assert.equal(unused.used_at, null);
    });

    it("judges a returning guest's cap on the latest usage: accounting just counted, or another connection's write", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const mac = dashed(client);
      const macAuth = () =>
        auth([`User-Name = "${mac}"`, `User-Password = "${mac}"`, `Called-Station-Id = "${dashed(ap.mac)}:Guest"`, `Calling-Station-Id = "${mac}"`, "Message-Authenticator = 0x00"]);
      const first = await macAuth();
      assert.equal(first.code, "Access-Accept", first.output);
      assert.equal(first.attributes["ChilliSpot-Max-Total-Octets"], "500000000");
      assert.equal((await macAuth()).attributes["ChilliSpot-Max-Total-Octets"], "500000000", "asked again, nothing changed");

      // 100 MB counted by our own accounting port: the very next request sees it.
      const session = [`Acct-Session-Id = "mac-cap-${guestId}"`, `Calling-Station-Id = "${mac}"`, `Called-Station-Id = "${dashed(ap.mac)}:Guest"`];
      const counted = await radclient(t.radius.acctPort, "acct", ap.secret, ["Acct-Status-Type = Interim-Update", ...session, "Acct-Input-Octets = 100000000"]);
      assert.equal(counted.code, "Accounting-Response", counted.output);
      assert.equal((await macAuth()).attributes["ChilliSpot-Max-Total-Octets"], "400000000");

      // The rest spent through another connection (another process, on SQLite): seen within its poll interval.
      const other = createDatabase(t.url, t.schema ? { searchPath: t.schema, poolSize: 1 } : {});
      try {
        await other.updateTable("daily_usage").set({ octets: 500_000_000 }).where("guest_id", "=", guestId).execute();
      } finally {
        await other.destroy();
      }
      // Seen once the poll has run: asked until it is (a loaded machine may run the poll late), not after a pause.
      const deadline = Date.now() + 10_000 + OTHER_CONNECTION_POLL_MS;
      let spent = await macAuth();
      while (spent.code !== "Access-Reject" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, OTHER_CONNECTION_POLL_MS));
        spent = await macAuth();
      }
      assert.equal(spent.code, "Access-Reject");
      assert.equal(spent.attributes["Reply-Message"], "Your data allowance at this location for today is used up.");
    });

    it("answers returning guests looked up together each with their own guest, usage and counted visit (one statement on PostgreSQL)", async () => {
      const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date());
      const since = "2000-01-01 00:00:00";
      const macs = Array.from({ length: 6 }, () => randomMac());
      const guests: number[] = [];
      for (const mac of macs.slice(0, 4)) guests.push(await makeGuest(t, locationId, mac));
      await t.db.insertInto("daily_usage").values({ guest_id: guests[1], location_id: locationId, day, octets: 1234 }).execute();
      await t.db.insertInto("daily_usage").values({ guest_id: guests[2], location_id: locationId, day: "2001-01-01", octets: 99 }).execute();
      // A voucher's guest comes back through the portal only.
      await t.db.updateTable("guests").set({ social_network: "Vuser" }).where("id", "=", guests[3]).execute();
      // Their logins counted today's visits; those of guests 0 and 2 are taken back (a day later, say).
      await t.db.deleteFrom("daily_visitors").where("guest_id", "in", [guests[0], guests[2]]).execute();
      const ask = (mac: string, accountId = t.accountId) => t.deps.radius.findReturningGuestUsage(t.db, { accountId, clientMac: mac, since, locationId, day });
      const found = await Promise.all([...macs.map((mac) => ask(mac)), ask(macs[0], t.accountId + 1000), ask(macs[1])]);
      assert.deepEqual(found, [
        { guestId: guests[0], usedOctets: 0, visitCounted: false },
        { guestId: guests[1], usedOctets: 1234, visitCounted: true },
        { guestId: guests[2], usedOctets: 0, visitCounted: false },
        undefined,
        undefined,
        undefined,
        undefined,
        { guestId: guests[1], usedOctets: 1234, visitCounted: true },
      ]);
    });

    it("rejects unknown users", async () => {
      const r = await auth(papRequest(ap.mac, randomMac(), "gw-nosuchuser", "whatever-password"));
      assert.equal(r.code, "Access-Reject");
      assert.equal(r.attributes["Reply-Message"], undefined, "no hint why");
    });
  });
}
