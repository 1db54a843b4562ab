/**
 * Controllers beyond the guest's grant, against the stand-in controllers (test/portal/controller-stand-ins.ts):
 * Test connection says in words what failed (unreachable, certificate mismatch, wrong credentials,
 * wrong site) and the outcome is kept on the controller; the location's walled garden (its
 * whitelist, the portal's host) reaches UniFi's and Omada's pre-authorization allowances after a
 * change of the location's options, replacing what the service pushed before and keeping the
 * venue's own entries; get-device-config pushes it too and says when the controller refused.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";
import { type TestCertificate, makeCertificate, startOmadaController, startUnifiController } from "../portal/controller-stand-ins.js";
import { controllerWorld } from "../portal/controller-world.js";

const USER = { username: "hotspot-operator", password: "s3cret-pass" };

/** A TCP port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const allowances = (g: Record<string, unknown>) =>
  Object.entries(g)
    .filter(([k]) => k.startsWith("allowed_subnet_"))
    .sort(([a], [b]) => Number(a.slice(15)) - Number(b.slice(15)))
    .map(([, v]) => v);

for (const dialect of DIALECTS) {
  describe(`controller Test connection and allowances (${dialect})`, () => {
    let t: TestApp;
    let cert: TestCertificate;
    let other: TestCertificate;
    let classic: Awaited<ReturnType<typeof startUnifiController>>;
    let os: Awaited<ReturnType<typeof startUnifiController>>;
    let omada: Awaited<ReturnType<typeof startOmadaController>>;

    before(async () => {
      cert = makeCertificate();
      other = makeCertificate("impostor.test");
      [classic, os, omada] = await Promise.all([
        startUnifiController(cert, { flavour: "classic", ...USER, site: "default" }),
        startUnifiController(cert, { flavour: "os", ...USER, site: "x7k2m9p4", apiKey: "unifi-api-key-0123456789" }),
        startOmadaController(cert, { ...USER, controllerId: "c0ffee1234abcd", sites: { Cafe: "6aa3913c3ee1605f71ac35a1" } }),
      ]);
      t = await createTestApp(dialect, { CONTROLLER_TIMEOUT_MS: "800", CONTROLLER_ALLOW_PRIVATE: "true" });
    });
    after(async () => {
      await t?.close();
      await Promise.all([classic?.close(), os?.close(), omada?.close()]);
    });

    async function controller(params: Record<string, string>): Promise<number> {
      const res = await t.call("POST", "create-or-update-controller", { name: "Test", tls_fingerprint: cert.fingerprint, ...params });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return res.body.controller_id;
    }

    async function test(id: number) {
      const res = await t.call("POST", "test-controller", { controller_id: id });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return res.body.data as { ok: boolean; fault: string; message: string; checked_at: string };
    }

    it("says the controller works: UniFi classic, UniFi OS with an API key, Omada, and keeps it on the controller", async () => {
      const ids = [
        await controller({ type: "unifi", url: classic.url, ...USER }),
        await controller({ type: "unifi", url: os.url, site: "x7k2m9p4", api_key: "unifi-api-key-0123456789" }),
        await controller({ type: "omada", url: omada.url, site: "Cafe", ...USER }),
      ];
      for (const id of ids) {
        const r = await test(id);
        assert.equal(r.ok, true, r.message);
        assert.equal(r.fault, "ok");
        assert.match(r.message, /site "(default|x7k2m9p4|Cafe)" found/);
        assert.match(r.checked_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      }
      assert.ok(classic.calls.some((c) => c.path === "/api/s/default/self"), "the site was read");
      assert.ok(os.calls.some((c) => c.path === "/proxy/network/api/s/x7k2m9p4/self" && c.headers["x-api-key"]));
      const list = await t.call("GET", "controller-list");
      const mine = list.body.data.find((c: { id: number }) => c.id === ids[2]);
      assert.equal(mine.last_status, "ok");
      assert.match(mine.last_message, /signed in/);
      assert.match(mine.last_checked_at, /^\d{4}-/);
    });

    it("says in words what failed: unreachable, certificate mismatch, wrong credentials, wrong site", async () => {
      const unreachable = await test(await controller({ type: "unifi", url: `https://127.0.0.1:${await closedPort()}`, ...USER }));
      assert.deepEqual([unreachable.ok, unreachable.fault], [false, "unreachable"]);
      assert.match(unreachable.message, /^Unreachable: ECONNREFUSED/);

      const mismatch = await test(await controller({ type: "unifi", url: classic.url, ...USER, tls_fingerprint: other.fingerprint }));
      assert.deepEqual([mismatch.ok, mismatch.fault], [false, "certificate"]);
      assert.match(mismatch.message, /^Certificate mismatch: certificate SHA-256 [0-9A-F]{64} is not the pinned/);

      const unpinned = await test(await controller({ type: "unifi", url: classic.url, ...USER, tls_fingerprint: "" }));
      assert.deepEqual([unpinned.ok, unpinned.fault], [false, "certificate"], "a self-signed certificate without a pin");

      for (const [type, url] of [["unifi", classic.url], ["omada", omada.url]]) {
        const wrong = await test(await controller({ type, url, site: type === "omada" ? "Cafe" : "default", username: USER.username, password: "not-the-password" }));
        assert.deepEqual([wrong.ok, wrong.fault], [false, "refused"], type);
        assert.match(wrong.message, /^Wrong credentials: the controller refused/);
      }
      const wrongKey = await test(await controller({ type: "unifi", url: os.url, site: "x7k2m9p4", api_key: "not-the-key-000000000000" }));
      assert.equal(wrongKey.fault, "refused");
      assert.match(wrongKey.message, /^Wrong credentials: the controller refused the API key/);

      const unifiSite = await test(await controller({ type: "unifi", url: classic.url, ...USER, site: "nosuchsite" }));
      assert.deepEqual([unifiSite.ok, unifiSite.fault], [false, "site"]);
      assert.equal(unifiSite.message, 'Wrong site: the controller has no site "nosuchsite".');
      const omadaSite = await test(await controller({ type: "omada", url: omada.url, ...USER, site: "Elsewhere" }));
      assert.deepEqual([omadaSite.ok, omadaSite.fault], [false, "site"]);

      const list = await t.call("GET", "controller-list");
      const statuses = list.body.data.map((c: { last_status: string }) => c.last_status);
      for (const s of ["unreachable", "certificate", "refused", "site"]) assert.ok(statuses.includes(s), s);
    });

    it("refuses a controller id the account does not have, like every other id", async () => {
      const none = await t.call("POST", "test-controller", { controller_id: 999999 });
      assert.equal(none.statusCode, 400);
      assert.deepEqual(Object.keys(none.body.message), ["controller_id"]);
    });

    it("UniFi: a change of the location's options puts its walled garden into the Pre-Authorization Allowances, keeping the venue's own", async () => {
      const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, ...USER, tls_fingerprint: cert.fingerprint });
      const set = await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, session_time_limit: 3600, whitelist: "menu.cafe.example, https://pay.example.org/checkout" });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      const first = await waitUntil("the allowances pushed", () => allowances(classic.guestAccess).includes("menu.cafe.example") && allowances(classic.guestAccess));
      assert.deepEqual(first, ["10.20.0.0/16", "portal.test", "menu.cafe.example", "pay.example.org"]);

      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, session_time_limit: 3600, whitelist: "tickets.example.net" });
      const second = await waitUntil("the allowances replaced", () => allowances(classic.guestAccess).includes("tickets.example.net") && allowances(classic.guestAccess));
      assert.deepEqual(second, ["10.20.0.0/16", "portal.test", "tickets.example.net"], "the hosts pushed before are gone, the venue's entry stays");
      // The controller's status is written after its answer arrives: wait for that write too.
      const mine = await waitUntil("the controller's status recorded", async () => {
        const list = await t.call("GET", "controller-list");
        const c = list.body.data.find((x: { id: number }) => x.id === w.controllerId);
        return /tickets\.example\.net/.test(c.last_message ?? "") && c;
      });
      assert.equal(mine.last_status, "ok");
      assert.match(mine.last_message, /pre-authorization allowances set: portal\.test, tickets\.example\.net/);
    });

    it("Omada: the same reaches the site's Pre-Authentication Access as URL entries", async () => {
      const w = await controllerWorld(t, "tplink-eap225", { type: "omada", url: omada.url, site: "Cafe", ...USER, tls_fingerprint: cert.fingerprint });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: w.locationId, session_time_limit: 3600, whitelist: "menu.cafe.example" });
      const urls = () => (omada.accessControl.get("6aa3913c3ee1605f71ac35a1")?.preAuthAccessPolicies ?? []).map((p) => (p.type === 2 ? p.url : `${p.ip}/${p.subnetMask}`));
      const got = await waitUntil("the Pre-Authentication Access pushed", () => urls().includes("menu.cafe.example") && urls());
      assert.deepEqual(got, ["10.20.0.0/16", "portal.test", "menu.cafe.example"]);
      assert.equal(omada.accessControl.get("6aa3913c3ee1605f71ac35a1")?.preAuthAccessEnable, true);
    });

    it("get-device-config pushes the allowances and warns when the controller refuses them", async () => {
      const good = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: os.url, site: "x7k2m9p4", api_key: "unifi-api-key-0123456789", tls_fingerprint: cert.fingerprint });
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: good.locationId, session_time_limit: 3600, whitelist: "config.example.com" });
      const res = await t.call("GET", "get-device-config", { device_id: good.deviceId });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.ok(allowances(os.guestAccess).includes("config.example.com"), "pushed by the time the configuration is answered");
      assert.deepEqual(res.body.data.warnings, []);

      const bad = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: classic.url, site: "nosuchsite", ...USER, tls_fingerprint: cert.fingerprint });
      const refused = await t.call("GET", "get-device-config", { device_id: bad.deviceId });
      assert.equal(refused.statusCode, 200);
      assert.equal(refused.body.data.warnings.length, 1, JSON.stringify(refused.body.data.warnings));
      assert.match(refused.body.data.warnings[0], /did not take the walled garden.*Wrong site: the controller has no site "nosuchsite"/);
    });
  });
}
