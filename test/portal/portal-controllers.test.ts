/**
 * UniFi and Omada hand-offs through app.inject against stand-in controllers over HTTPS: what the
 * controller is asked (MAC, AP, limits), session reuse and renewal, and every failure path
 * (wrong credentials, controller down or silent, wrong certificate, no controller, bad parameters).
 */
import assert from "node:assert/strict";
import { type Server, type Socket, createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { grantFor } from "../../src/gateways/grant-policy.js";
import { unifiGrant } from "../../src/gateways/unifi/unifi.family.js";
import { defaultOptions } from "../../src/modules/locations/locations.service.js";
import { ControllerGrants, kbpsOf, megabytesOf } from "../../src/portal/controller-grants.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { type ControllerStandIn, type TestCertificate, makeCertificate, startOmadaController, startUnifiController } from "./controller-stand-ins.js";
import { controllerWorld, omadaUrl, unifiUrl } from "./controller-world.js";
import { PortalClient, countLogins, randomMac, stateOf } from "./portal-world.js";
import { waitUntil } from "../helpers/wait.js";

const USER = { username: "hotspot-operator", password: "s3cret-pass" };
const OPTIONS = { session_time_limit: 5400, max_bandwidth: 250_000, max_bandwidth_up: 125_000, daily_bandwidth_cap: 500_000_000 };

describe("controller units", () => {
  it("turns bytes/s into kbit/s and bytes into MB, rounding up, 0 staying off", () => {
    assert.equal(kbpsOf(125_000), 1000);
    assert.equal(kbpsOf(1), 1);
    assert.equal(kbpsOf(0), 0);
    assert.equal(megabytesOf(1_048_576), 1);
    assert.equal(megabytesOf(1_048_577), 2);
    assert.equal(megabytesOf(0), 0);
  });
});

/**
 * Waits until the walled garden that an options change pushes to the controller after commit has
 * been recorded: a push still under way would log in to the stand-in during the next test, which
 * counts the controller logins the hand-off makes.
 */
async function pushedTo(t: TestApp, controllerId: number): Promise<void> {
  await waitUntil("the walled garden pushed to the controller", async () => {
    const list = await t.call("GET", "controller-list");
    const c = list.body.data.find((x: { id: number }) => x.id === controllerId);
    return /allowances/i.test(c?.last_message ?? "");
  });
}

for (const dialect of DIALECTS) {
  describe(`UniFi and Omada hand-off (${dialect})`, () => {
    let t: TestApp;
    let cert: TestCertificate;
    let other: TestCertificate;
    let classic: ControllerStandIn & { accepted: any[] };
    let os: ControllerStandIn & { accepted: any[] };
    let omada: ControllerStandIn & { accepted: any[] };
    let silent: Server;
    const silentSockets: Socket[] = [];
    let silentPort: number;

    before(async () => {
      cert = makeCertificate();
      other = makeCertificate("impostor.test");
      [classic, os, omada] = await Promise.all([
        startUnifiController(cert, { flavour: "classic", ...USER, site: "default" }),
        startUnifiController(cert, { flavour: "os", ...USER, site: "x7k2m9p4", apiKey: "unifi-api-key-0123456789" }),
        startOmadaController(cert, { ...USER, controllerId: "c0ffee1234abcd" }),
      ]);
      silent = createServer((socket) => silentSockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      silentPort = (silent.address() as { port: number }).port;
      t = await createTestApp(dialect, { PORTAL_SECRET: "portal-secret-for-tests", CONTROLLER_TIMEOUT_MS: "800", CONTROLLER_ALLOW_PRIVATE: "true" });
    });
    after(async () => {
      await t?.close();
      await Promise.all([classic?.close(), os?.close(), omada?.close()]);
      for (const socket of silentSockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    async function clickThrough(client: PortalClient, pageUrl: string) {
      const page = await client.get(pageUrl);
      assert.equal(page.statusCode, 200, page.body);
      return { page, res: await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" }) };
    }

    it("UniFi classic: the AP's page, then authorize-guest with the client's MAC, the AP and the location's limits", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint }, { redirect_url: "https://cafe.example/welcome" });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...OPTIONS });
      await pushedTo(t, w.controllerId);
      const client = new PortalClient(t.app);
      const guest = randomMac();
      const { page, res } = await clickThrough(client, unifiUrl("", { ap: w.apMac, client: guest, url: "http://evil.example/phish" }));
      assert.match(page.body, /Welcome to Cafe Blau/);
      assert.doesNotMatch(String(page.headers["content-security-policy"]), /evil\.example/);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /You are online/);
      assert.match(res.body, /<meta http-equiv="refresh" content="0;url=https:\/\/cafe\.example\/welcome">/, "on to the campaign's redirect_url, never the query's url");
      assert.doesNotMatch(res.body, /evil\.example/);
      const [cmd] = classic.accepted.slice(-1);
      assert.deepEqual(cmd, { cmd: "authorize-guest", mac: guest.toLowerCase(), minutes: 90, up: 1000, down: 2000, bytes: 477, ap_mac: w.apMac.toLowerCase() });
      const login = classic.calls.find((c) => c.path === "/api/login");
      assert.deepEqual(login?.body, USER);
      const [row] = await countLogins(t, w.locationId);
      assert.equal(row.login_type, "FWuser");
      assert.equal(row.client_mac, guest);
      const captive = (await t.app.inject({ method: "GET", url: `${w.path}/captive-portal-api`, remoteAddress: "127.0.0.1" })).json();
      assert.equal(captive.captive, false, "the RFC 8908 API knows the device is in");
      assert.ok(captive["seconds-remaining"] > 5390, JSON.stringify(captive));
    });

    it("UniFi with a voucher: authorize-guest gets the voucher's minutes left, rates and data left instead of the location's", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint }, {
        login_options: JSON.stringify({ voucher: 1 }),
      });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...OPTIONS });
      await pushedTo(t, w.controllerId);
      const created = await t.call("POST", "create-voucher-batch", {
        location_ids: String(w.locationId),
        count: 1,
        duration: 30,
        bandwidth_down: 62_500,
        data_cap: 10_485_760,
      });
      assert.equal(created.statusCode, 200, JSON.stringify(created.body));
      const client = new PortalClient(t.app);
      const guest = randomMac();
      const page = await client.get(unifiUrl("", { ap: w.apMac, client: guest }));
      assert.equal(page.statusCode, 200, page.body);
      const res = await client.post("/portal/login/voucher", { state: stateOf(page.body), code: created.body.codes[0] });
      assert.ok(res.statusCode === 303 || res.statusCode === 200, res.body);
      const [cmd] = classic.accepted.slice(-1);
      assert.deepEqual(cmd, { cmd: "authorize-guest", mac: guest.toLowerCase(), minutes: 30, up: 1000, down: 500, bytes: 10, ap_mac: w.apMac.toLowerCase() });
      const [row] = await countLogins(t, w.locationId);
      assert.equal(row.login_type, "Vuser");
    });

    it("UniFi: the session is reused, and renewed once when the controller forgot it (401)", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-pro", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
      const logins = () => classic.calls.filter((c) => c.path === "/api/login").length;
      await clickThrough(new PortalClient(t.app), unifiUrl("", { ap: w.apMac, client: randomMac() }));
      const before = logins();
      const second = await clickThrough(new PortalClient(t.app), unifiUrl("", { ap: w.apMac, client: randomMac() }));
      assert.equal(second.res.statusCode, 200);
      assert.match(second.res.body, /You are online/);
      assert.equal(logins(), before, "no new login for the second guest");
      classic.expireSessions();
      const guest = randomMac();
      const third = await clickThrough(new PortalClient(t.app), unifiUrl("", { ap: w.apMac, client: guest }));
      assert.equal(third.res.statusCode, 200, third.res.body);
      assert.equal(logins(), before + 1, "one new login after the 401");
      assert.equal(classic.accepted.at(-1).mac, guest.toLowerCase());
      assert.equal(classic.accepted.at(-1).minutes, 1440, "a day when the location sets no limit");
      assert.equal((await countLogins(t, w.locationId)).length, 3);
    });

    it("UniFi OS: /api/auth/login, /proxy/network and X-CSRF-Token; and an API key instead of a login", async () => {
      const w = await controllerWorld(t, "ubiquiti-uap-ac-lite", { type: "unifi", url: os.url, site: "x7k2m9p4", ...USER, tls_fingerprint: cert.fingerprint });
      const guest = randomMac();
      const { res } = await clickThrough(new PortalClient(t.app), unifiUrl("", { site: "x7k2m9p4", ap: w.apMac, client: guest }));
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /You are online/);
      assert.ok(os.calls.some((c) => c.path === "/api/auth/login"));
      const cmd = os.calls.filter((c) => c.path === "/proxy/network/api/s/x7k2m9p4/cmd/stamgr").at(-1);
      assert.ok(cmd?.headers["x-csrf-token"]);
      assert.equal(os.accepted.at(-1).mac, guest.toLowerCase());

      const k = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: os.url, site: "x7k2m9p4", api_key: "unifi-api-key-0123456789", tls_fingerprint: cert.fingerprint });
      const logins = os.calls.filter((c) => c.path === "/api/auth/login").length;
      const guest2 = randomMac();
      const keyed = await clickThrough(new PortalClient(t.app), unifiUrl("", { site: "x7k2m9p4", ap: k.apMac, client: guest2 }));
      assert.equal(keyed.res.statusCode, 200, keyed.res.body);
      assert.equal(os.accepted.at(-1).mac, guest2.toLowerCase());
      assert.equal(os.calls.filter((c) => c.path === "/api/auth/login").length, logins, "no login with an API key");
    });

    it("Omada: EAP and gateway redirects, granted by extPortal/auth with the session time in microseconds", async () => {
      const w = await controllerWorld(t, "tplink-eap650", { type: "omada", url: omada.url, site: "Cafe", ...USER, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, ...OPTIONS });
      const guest = randomMac();
      const { res } = await clickThrough(new PortalClient(t.app), omadaUrl(w.path, { client: guest, ap: w.apMac, ssid: "Cafe Guest", radio: "1", redirect: "http://evil.example/" }));
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, /You are online/);
      assert.deepEqual(omada.accepted.at(-1), {
        clientMac: guest.replace(/:/g, "-"),
        site: "5f2a9c1e8b7d4a0012345678",
        time: 5400 * 1_000_000,
        authType: 4,
        apMac: w.apMac.replace(/:/g, "-"),
        ssidName: "Cafe Guest",
        radioId: 1,
      });
      const login = omada.calls.find((c) => c.path === "/c0ffee1234abcd/api/v2/hotspot/login");
      assert.deepEqual(login?.body, { name: USER.username, password: USER.password });
      const gw = await controllerWorld(t, "tplink-er605", { type: "omada", url: omada.url, ...USER, tls_fingerprint: cert.fingerprint });
      const guest2 = randomMac();
      const viaGateway = await clickThrough(new PortalClient(t.app), omadaUrl(gw.path, { client: guest2, gateway: gw.apMac, vid: "20" }));
      assert.equal(viaGateway.res.statusCode, 200, viaGateway.res.body);
      assert.deepEqual(omada.accepted.at(-1), {
        clientMac: guest2.replace(/:/g, "-"),
        site: "5f2a9c1e8b7d4a0012345678",
        time: 86_400 * 1_000_000,
        authType: 4,
        gatewayMac: gw.apMac.replace(/:/g, "-"),
        vid: 20,
      });
    });

    it("wrong credentials, a controller down or silent, a wrong certificate, no controller: a page to retry, nothing recorded", async () => {
      const cases: [string, Record<string, string> | null][] = [
        ["wrong password", { type: "unifi", url: classic.url, username: USER.username, password: "wrong", tls_fingerprint: cert.fingerprint }],
        ["down", { type: "unifi", url: "https://127.0.0.1:1", ...USER }],
        ["silent", { type: "unifi", url: `https://127.0.0.1:${silentPort}`, ...USER }],
        ["wrong certificate", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: other.fingerprint }],
        ["unpinned self-signed", { type: "unifi", url: classic.url, ...USER }],
        ["no controller", null],
      ];
      for (const [what, controller] of cases) {
        const w = await controllerWorld(t, "ubiquiti-u6-lite", controller as never);
        const calls = classic.calls.length;
        const started = Date.now();
        const { res } = await clickThrough(new PortalClient(t.app), unifiUrl("", { ap: w.apMac, client: randomMac() }));
        assert.equal(res.statusCode, 502, `${what}: ${res.body}`);
        assert.match(res.body, controller ? /try again in a moment/ : /not fully set up/, what);
        if (controller) assert.match(res.body, /action="\/portal\/login\/clickthrough"/, `${what}: the form again, to retry`);
        assert.ok(Date.now() - started < 5000, `${what}: answered within the timeout`);
        assert.equal((await countLogins(t, w.locationId)).length, 0, `${what}: nothing recorded`);
        if (what === "wrong certificate" || what === "unpinned self-signed") {
          assert.equal(classic.calls.length, calls, `${what}: not a byte of the credentials reached the impostor`);
        }
      }
    });

    it("logs the controller's answer when it refuses", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, username: "nobody", password: "nothing", tls_fingerprint: cert.fingerprint });
      const logged: unknown[] = [];
      const log = { warn: (o: unknown) => logged.push(o), info: () => {} } as never;
      const grants = new ControllerGrants(log, { secretBoxKey: undefined, controllerTimeoutMs: 2000, controllerAllowPrivate: true });
      const [location] = await t.deps.repos.locations.findOwnedLive(t.db, t.accountId, [w.locationId]);
      await assert.rejects(unifiGrant(grants, t.deps, location, randomMac(), { kind: "unifi", site: "default", ap: w.apMac }, grantFor({ options: defaultOptions(w.locationId), settings: { interimInterval: 300 } })), (e: { statusCode: number }) => e.statusCode === 502);
      const entry = logged[0] as { fault: string; answer: { status: number; body: string } };
      assert.equal(entry.fault, "refused");
      assert.equal(entry.answer.status, 400);
      assert.match(entry.answer.body, /api\.err\.Invalid/);
    });

    it("refuses bad or missing parameters, unknown APs and APs of another family with the portal's page", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint });
      const client = new PortalClient(t.app);
      const bad = [
        `/guest/s/default/?ap=${w.apMac}`,
        `/guest/s/default/?id=${randomMac()}`,
        `/guest/s/default/?ap=zz:zz&id=${randomMac()}`,
        `/guest/s/de%20fault/?ap=${w.apMac}&id=${randomMac()}`,
        `/guest/s/default/?ap=${w.apMac}&ap=${w.apMac}&id=${randomMac()}`,
      ];
      for (const url of bad) {
        const res = await client.get(url);
        assert.equal(res.statusCode, 400, url);
        assert.match(res.body, /invalid request/, url);
        assert.match(String(res.headers["content-type"]), /text\/html/);
      }
      assert.equal((await client.get(unifiUrl("", { ap: randomMac(), client: randomMac() }))).statusCode, 403);
      // A Coova device's MAC on UniFi's path: its model decides its family.
      const coova = await controllerWorld(t, "coovachilli", null);
      assert.equal((await client.get(unifiUrl("", { ap: coova.apMac, client: randomMac() }))).statusCode, 403);
      const o = await controllerWorld(t, "tplink-eap225", { type: "omada", url: omada.url, ...USER, tls_fingerprint: cert.fingerprint });
      for (const p of [{ radio: "x" }, { ssid: "" }, { site: "a/b" }]) {
        const res = await client.get(omadaUrl(o.path, { client: randomMac(), ap: o.apMac, ...p }));
        assert.equal(res.statusCode, 400, JSON.stringify(p));
      }
      assert.equal((await client.get(omadaUrl(o.path, { client: randomMac(), gateway: o.apMac, vid: "5000" }))).statusCode, 400);
      assert.equal((await client.get(omadaUrl(o.path, { client: "nope", ap: o.apMac }))).statusCode, 400);
      // A UniFi AP cannot be let in through an Omada controller, nor the other way round.
      const mixed = await controllerWorld(t, "ubiquiti-u6-lite", { type: "omada", url: omada.url, ...USER, tls_fingerprint: cert.fingerprint });
      const { res } = await clickThrough(client, unifiUrl("", { ap: mixed.apMac, client: randomMac() }));
      assert.equal(res.statusCode, 502);
      assert.match(res.body, /not fully set up/);
    });

    it("answers hostile values in every UniFi and Omada parameter with the portal's page, never a 500, and calls no controller", async () => {
      const u = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint });
      const o = await controllerWorld(t, "tplink-eap225", { type: "omada", url: omada.url, ...USER, tls_fingerprint: cert.fingerprint });
      const hostile = ["", " ", "x".repeat(5000), "\u0000", "%00", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "aa:bb:cc:dd:ee:ff:00", "😀", "-1", "99999999999999999999", "http://evil.example/"];
      const client = new PortalClient(t.app);
      // Assigning the controllers pushed the walled garden to them (after commit): wait until both recorded it, then count.
      const deadline = Date.now() + 5000;
      const pushed = async () => {
        const list = (await t.call("GET", "controller-list")).body.data as { id: number; last_checked_at: string }[];
        return [u.controllerId, o.controllerId].every((id) => list.find((c) => c.id === id)?.last_checked_at);
      };
      while (!(await pushed())) {
        assert.ok(Date.now() < deadline, "the walled garden pushed to both controllers");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const calls = classic.calls.length + omada.calls.length;
      const unifiBase = { ap: u.apMac, id: randomMac(), t: "1700000000", url: "http://example.org/", ssid: "Cafe" };
      const omadaBase = { clientMac: randomMac(), apMac: o.apMac, ssidName: "Cafe", radioId: "1", site: "abc", t: "1", redirectUrl: "http://example.org/" };
      for (const value of hostile) {
        for (const key of Object.keys(unifiBase)) {
          const q = new URLSearchParams({ ...unifiBase, [key]: value });
          const res = await client.get(`/guest/s/default/?${q.toString()}`);
          assert.ok(res.statusCode < 500, `unifi ${key}=${value.slice(0, 20)}: ${res.statusCode}`);
        }
        const site = await client.get(`/guest/s/${encodeURIComponent(value || "x")}/?${new URLSearchParams(unifiBase).toString()}`);
        assert.ok(site.statusCode < 500, `unifi site ${value.slice(0, 20)}: ${site.statusCode}`);
        for (const key of [...Object.keys(omadaBase), "gatewayMac", "vid"]) {
          const q = new URLSearchParams({ ...omadaBase, [key]: value });
          const res = await client.get(`${o.path}?${q.toString()}`);
          assert.ok(res.statusCode < 500, `omada ${key}=${value.slice(0, 20)}: ${res.statusCode}`);
          assert.doesNotMatch(res.body, /<script>alert/);
        }
      }
      assert.equal(classic.calls.length + omada.calls.length, calls, "a page view never calls a controller");
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`a controller on a refused address (${dialect})`, () => {
    let t: TestApp;
    let cert: TestCertificate;
    // Stands where the refused addresses point: it counts every TCP connection and answers none.
    let trap: Server;
    let trapPort: number;
    let connections = 0;

    before(async () => {
      cert = makeCertificate();
      trap = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
      trapPort = (trap.address() as { port: number }).port;
      t = await createTestApp(dialect, { PORTAL_SECRET: "portal-secret-for-tests", CONTROLLER_TIMEOUT_MS: "800" });
    });
    after(async () => {
      await t?.close();
      await new Promise<void>((resolve) => trap.close(() => resolve()));
    });

    async function clickThrough(client: PortalClient, pageUrl: string) {
      const page = await client.get(pageUrl);
      assert.equal(page.statusCode, 200, page.body);
      return { page, res: await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" }) };
    }

    it("is refused at create-or-update-controller under url, and nothing is written", async () => {
      const count = async () => Number((await t.db.selectFrom("controllers").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      const before = await count();
      for (const url of [`http://127.0.0.1:${trapPort}`, `http://[::1]:${trapPort}`, "http://169.254.169.254", "http://localhost:6379", `https://localhost:${trapPort}`]) {
        const res = await t.call("POST", "create-or-update-controller", { name: "Q", type: "unifi", url, ...USER });
        assert.equal(res.statusCode, 400, url);
        assert.deepEqual(Object.keys(res.body.message), ["url"], url);
        assert.match(res.body.message.url[0], /refused/, url);
      }
      assert.equal(await count(), before);
      assert.equal(connections, 0);
    });

    it("a guest's login never makes the service call it: a page to retry, nothing recorded, no connection", async () => {
      // Saved while CONTROLLER_ALLOW_PRIVATE=true (or before the rule), then the service started without it.
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: "https://93.184.215.14:8443", ...USER });
      const logged: { fault?: string }[] = [];
      const log = { warn: (o: { fault?: string }) => logged.push(o), info: () => {} } as never;
      const grants = new ControllerGrants(log, t.config);
      const [location] = await t.deps.repos.locations.findOwnedLive(t.db, t.accountId, [w.locationId]);
      const cases: [string, string][] = [
        [`https://localhost:${trapPort}`, ""],
        [`https://localhost:${trapPort}`, cert.fingerprint],
        [`http://localhost:${trapPort}`, ""],
        [`https://127.0.0.1:${trapPort}`, cert.fingerprint],
        [`http://[::ffff:127.0.0.1]:${trapPort}`, ""],
        [`http://[::1]:${trapPort}`, ""],
      ];
      for (const [i, [url, fingerprint]] of cases.entries()) {
        await t.db
          .updateTable("controllers")
          .set({ url, tls_fingerprint: fingerprint.replace(/:/g, ""), last_modified: `2026-01-01 00:00:0${i}` })
          .where("id", "=", w.controllerId)
          .execute();
        const { res } = await clickThrough(new PortalClient(t.app), unifiUrl("", { ap: w.apMac, client: randomMac() }));
        assert.equal(res.statusCode, 502, `${url}: ${res.body}`);
        assert.match(res.body, /try again in a moment/, url);
        assert.equal((await countLogins(t, w.locationId)).length, 0, `${url}: nothing recorded`);
        await assert.rejects(unifiGrant(grants, t.deps, location, randomMac(), { kind: "unifi", site: "default", ap: w.apMac }, grantFor({ options: defaultOptions(w.locationId), settings: { interimInterval: 300 } })), (e: { statusCode: number }) => e.statusCode === 502);
        assert.equal(logged.at(-1)?.fault, "forbidden", url);
      }
      // RUCKUS's northbound interface goes through the same door.
      const access = { id: w.controllerId, type: "ruckus" as const, url: `https://localhost:${trapPort}`, site: "", tlsFingerprint: "", credentials: { username: "", password: "x" }, version: "v" };
      const ruckus = { kind: "ruckus-nbi" as const, nbi: "localhost", ueMac: "02:00:00:00:00:01", ueIp: "10.0.0.9", proxy: "0", url: "" };
      await assert.rejects(grants.ruckusLogin(access, location, ruckus, { username: "u", password: "p" }), (e: { statusCode: number }) => e.statusCode === 502);
      assert.equal(logged.at(-1)?.fault, "forbidden");
      assert.equal(connections, 0, "no connection was opened to a refused address");
    });
  });
}
