/**
 * The RFC 8908 captive-portal API of a location: captive until the device is in (recognised by its
 * local address through an open RADIUS session or a grant the portal made), then the time and
 * bytes it has left; never freed by another device's session, nor through a shared public address.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toDbDatetime } from "../../src/db/time.js";
import { localDay } from "../../src/modules/guests/local-day.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, coovaUrl, countLogins, makeWorld, merakiUrl, randomMac, stateOf } from "./portal-world.js";

const UAM_SECRET = "captive-api-uam-secret";

for (const dialect of DIALECTS) {
  describe(`RFC 8908 captive-portal API (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL: "https://portal.test", PORTAL_SECRET: "portal-secret-for-tests", COOVA_UAM_SECRET: UAM_SECRET, TRUST_PROXY: "false" });
    });
    after(async () => t.close());

    async function api(path: string, ip: string) {
      const res = await t.app.inject({ method: "GET", url: `${path}/captive-portal-api`, remoteAddress: ip, headers: { accept: "application/captive+json" } });
      return { statusCode: res.statusCode, type: String(res.headers["content-type"]), cache: String(res.headers["cache-control"]), body: res.json() };
    }

    it("answers captive with the portal's URL (https) and the venue's, as application/captive+json, never cached", async () => {
      const w = await makeWorld(t);
      assert.match(w.url, /^https:\/\//);
      await t.call("POST", "create-or-update-location", {
        location_id: w.locationId, location_name: "Cafe", address1: "1 Main Street", town: "Springfield", state: "IL", zipcode: "62701",
        country: "US", phone_number: "(217)555-0100", timezone: "Europe/Berlin", website: "https://cafe.example/",
      });
      const res = await api(w.path, "10.1.0.9");
      assert.equal(res.statusCode, 200);
      assert.match(res.type, /^application\/captive\+json/);
      assert.match(res.cache, /no-store/);
      assert.deepEqual(res.body, { captive: true, "user-portal-url": w.url, "venue-info-url": "https://cafe.example/" });
      const unknown = await t.app.inject({ method: "GET", url: "/portal/l/no-such-slug/captive-portal-api" });
      assert.equal(unknown.statusCode, 404);
    });

    it("shows a location's change at the next poll, and answers 404 once the location is deleted", async () => {
      const w = await makeWorld(t);
      const venue = (website: string) =>
        t.call("POST", "create-or-update-location", {
          location_id: w.locationId, location_name: "Cafe", address1: "1 Main Street", town: "Springfield", state: "IL", zipcode: "62701",
          country: "US", phone_number: "(217)555-0100", timezone: "Europe/Berlin", website,
        });
      await venue("https://before.example/");
      assert.equal((await api(w.path, "10.1.0.10")).body["venue-info-url"], "https://before.example/");
      await venue("https://after.example/");
      assert.equal((await api(w.path, "10.1.0.10")).body["venue-info-url"], "https://after.example/", "the location as it is now");
      const gone = await t.call("POST", "delete-location", { location_id: w.locationId });
      assert.equal(gone.statusCode, 200, JSON.stringify(gone.body));
      assert.equal((await api(w.path, "10.1.0.10")).statusCode, 404, "a deleted location's portal is gone");
    });

    it("a Meraki guest let in: not captive, with the seconds left; other devices and public addresses stay captive", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, session_time_limit: 3600 });
      const guest = new PortalClient(t.app, undefined, "192.168.10.23");
      const page = await guest.get(merakiUrl(w.path, { grant: "https://n1.network-auth.com/splash/grant", node: w.apMac, client: randomMac() }));
      assert.equal(page.statusCode, 200, page.body);
      assert.equal((await api(w.path, "192.168.10.23")).body.captive, true, "captive before the login");
      const res = await guest.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
      assert.equal(res.statusCode, 303);
      const inside = await api(w.path, "192.168.10.23");
      assert.equal(inside.body.captive, false);
      assert.ok(inside.body["seconds-remaining"] > 3590 && inside.body["seconds-remaining"] <= 3600, JSON.stringify(inside.body));
      assert.equal(inside.body["user-portal-url"], w.url);
      assert.equal((await api(w.path, "192.168.10.24")).body.captive, true, "another device");
      const other = await makeWorld(t);
      assert.equal((await api(other.path, "192.168.10.23")).body.captive, true, "another location");

      const nat = new PortalClient(t.app, undefined, "203.0.113.80");
      const p2 = await nat.get(merakiUrl(w.path, { grant: "https://n1.network-auth.com/splash/grant", node: w.apMac, client: randomMac() }));
      await nat.post("/portal/login/clickthrough", { state: stateOf(p2.body), accept_terms: "1" });
      assert.equal((await api(w.path, "203.0.113.80")).body.captive, true, "a shared public address frees nobody");
    });

    it("a RADIUS guest with an open session: seconds left of the session limit and bytes left of today's cap", async () => {
      const w = await makeWorld(t, { redirect_url: "" });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, session_time_limit: 3600, daily_bandwidth_cap: 500_000_000 });
      const client = new PortalClient(t.app, undefined, "10.1.0.7");
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: "0a:1b:2c:3d:4e:5f" }, UAM_SECRET));
      await client.post("/portal/login/email", { state: stateOf(page.body), email: "rita@example.com" });
      const [login] = await countLogins(t, w.locationId);
      assert.equal((await api(w.path, "10.1.0.7")).body.captive, true, "no session yet: the gateway has not let it in");
      const now = new Date();
      await t.db
        .insertInto("radius_sessions")
        .values({
          device_id: w.deviceId, guest_id: login.guest_id, location_id: w.locationId, acct_session_id: "5c1e7a2b00000001", username: "u",
          client_mac: "0A:1B:2C:3D:4E:5F", started_at: toDbDatetime(new Date(now.getTime() - 600_000)), updated_at: toDbDatetime(now),
          stopped_at: null, session_time: 600, input_octets: 0, output_octets: 0, terminate_cause: null, framed_ip: "10.1.0.7",
        })
        .execute();
      await t.db.insertInto("daily_usage").values({ guest_id: login.guest_id, location_id: w.locationId, day: localDay(now, "Europe/Berlin"), octets: 100_000_000 }).execute();
      const inside = await api(w.path, "10.1.0.7");
      assert.equal(inside.body.captive, false, JSON.stringify(inside.body));
      assert.ok(inside.body["seconds-remaining"] > 2990 && inside.body["seconds-remaining"] <= 3000, JSON.stringify(inside.body));
      assert.equal(inside.body["bytes-remaining"], 400_000_000);
      await t.db.updateTable("radius_sessions").set({ stopped_at: toDbDatetime(now) }).where("framed_ip", "=", "10.1.0.7").execute();
      assert.equal((await api(w.path, "10.1.0.7")).body.captive, true, "captive again once the session ended");
    });
  });
}
