import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../../src/config.js";
import { SECRET_BOX_NAME, openSecret, sealSecret } from "../../../src/db/secret-box.js";
import { controllerOfLocation } from "../../../src/modules/controllers/controllers.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeLocation, makeSubUser } from "../../helpers/sub-users.js";

const UNIFI = { name: "Office UniFi", type: "unifi", url: "https://192.168.1.2:8443/", username: "hotspot", password: "pa55-w0rd-secret" };

describe("secret box", () => {
  it("opens what it sealed, and nothing sealed with another key or purpose, or altered", () => {
    const key = randomBytes(32);
    const sealed = sealSecret(key, "p:1", "hello");
    assert.equal(openSecret(key, "p:1", sealed), "hello");
    assert.equal(openSecret(randomBytes(32), "p:1", sealed), undefined);
    assert.equal(openSecret(key, "p:2", sealed), undefined);
    const parts = sealed.split(".");
    parts[3] = Buffer.from("hellp").toString("base64url");
    assert.equal(openSecret(key, "p:1", parts.join(".")), undefined);
    assert.equal(openSecret(key, "p:1", "garbage"), undefined);
  });

  it("takes SECRET_BOX_KEY as 64 hex digits or base64 of 32 bytes, and refuses anything else", () => {
    const key = randomBytes(32);
    assert.deepEqual(loadConfig({ SECRET_BOX_KEY: key.toString("hex") }).secretBoxKey, key);
    assert.deepEqual(loadConfig({ SECRET_BOX_KEY: key.toString("base64") }).secretBoxKey, key);
    assert.deepEqual(loadConfig({ SECRET_BOX_KEY: key.toString("base64url") }).secretBoxKey, key);
    assert.equal(loadConfig({}).secretBoxKey, undefined);
    assert.throws(() => loadConfig({ SECRET_BOX_KEY: "short" }), /SECRET_BOX_KEY/);
    assert.throws(() => loadConfig({ SECRET_BOX_KEY: randomBytes(16).toString("hex") }), /SECRET_BOX_KEY/);
  });
});

for (const dialect of DIALECTS) {
  describe(`controllers API (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      // The controllers here sit on the venue's LAN (192.168/16), as self-hosted installs often do.
      t = await createTestApp(dialect, { CONTROLLER_ALLOW_PRIVATE: "true" });
    });
    after(async () => t.close());

    it("creates a controller, lists it without its credentials, and keeps them sealed at rest", async () => {
      const res = await t.call("POST", "create-or-update-controller", { ...UNIFI, tls_fingerprint: "ab:".repeat(31) + "ab" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.message, "Controller has been successfully created.");
      const id = res.body.controller_id;
      assert.equal(res.body.data.url, "https://192.168.1.2:8443");
      assert.equal(res.body.data.site, "default");
      assert.equal(res.body.data.auth, "password");
      assert.equal(res.body.data.tls_fingerprint, "AB".repeat(32));
      const list = await t.call("GET", "controller-list");
      assert.equal(list.statusCode, 200);
      const mine = list.body.data.find((c: { id: number }) => c.id === id);
      assert.ok(mine);
      const text = JSON.stringify(list.body) + JSON.stringify(res.body);
      assert.ok(!text.includes(UNIFI.password) && !text.includes("hotspot"), text);
      for (const k of ["username", "password", "api_key", "credentials"]) assert.ok(!(k in mine) && !(k in res.body.data), k);
      const row = await t.db.selectFrom("controllers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      assert.ok(!row.credentials.includes(UNIFI.password) && !row.credentials.includes("hotspot"), "sealed at rest");
      assert.ok(!Buffer.from(row.credentials, "utf8").toString("latin1").includes("pa55"));
      const stored = await t.db.selectFrom("service_secrets").select("name").where("name", "=", SECRET_BOX_NAME).executeTakeFirst();
      assert.ok(stored, "the generated key is kept beside the database");
    });

    it("requires name, type, url and credentials, and says which are wrong, all at once", async () => {
      const none = await t.call("POST", "create-or-update-controller", {});
      assert.equal(none.statusCode, 400);
      assert.deepEqual(Object.keys(none.body.message).sort(), ["name", "type", "url"]);
      const noCreds = await t.call("POST", "create-or-update-controller", { name: "X", type: "omada", url: "https://192.168.1.3:8043" });
      assert.deepEqual(noCreds.body.message, { username: ["The username field is required."] });
      const noPass = await t.call("POST", "create-or-update-controller", { name: "X", type: "unifi", url: "https://192.168.1.4", username: "a" });
      assert.deepEqual(noPass.body.message, { password: ["The password field is required."] });
      const bad = await t.call("POST", "create-or-update-controller", {
        name: "X", type: "cisco", url: "ftp://x", site: "a/b", tls_fingerprint: "zz", username: "a", password: "b",
      });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ["site", "tls_fingerprint", "type", "url"]);
      assert.deepEqual(bad.body.message.type, ["The type must be one of: unifi, omada, ruckus."]);
      const omadaKey = await t.call("POST", "create-or-update-controller", { name: "X", type: "omada", url: "https://192.168.1.5", api_key: "k" });
      assert.equal(omadaKey.statusCode, 400);
      assert.ok(omadaKey.body.message.api_key);
      const both = await t.call("POST", "create-or-update-controller", { ...UNIFI, api_key: "k" });
      assert.ok(both.body.message.api_key);
      const count = await t.db.selectFrom("controllers").select((eb) => eb.fn.countAll<number>().as("n")).where("name", "=", "X").executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0, "nothing written");
    });

    it("updates: credentials not given are kept, an API key replaces them, a new password keeps the username", async () => {
      const id = (await t.call("POST", "create-or-update-controller", UNIFI)).body.controller_id;
      const loc = await makeLocation(t);
      assert.equal((await t.call("POST", "location-assign-controller", { location_id: loc, controller_id: id })).statusCode, 200);
      const key = await import("../../../src/db/secret-box.js").then((m) => m.secretBoxKey(t.db, undefined));
      const rename = await t.call("POST", "create-or-update-controller", { controller_id: id, name: "Renamed", type: "unifi", url: "https://192.168.1.6", site: "x1y2z3" });
      assert.equal(rename.statusCode, 200, JSON.stringify(rename.body));
      assert.equal(rename.body.message, "Controller has been successfully updated.");
      assert.deepEqual(rename.body.data.location_ids, [loc]);
      let access = await controllerOfLocation(t.deps, key, loc);
      assert.deepEqual(access?.credentials, { username: "hotspot", password: UNIFI.password });
      assert.equal(access?.site, "x1y2z3");
      await t.call("POST", "create-or-update-controller", { controller_id: id, name: "R", type: "unifi", url: "https://192.168.1.6", password: "new-one" });
      access = await controllerOfLocation(t.deps, key, loc);
      assert.deepEqual(access?.credentials, { username: "hotspot", password: "new-one" });
      const withKey = await t.call("POST", "create-or-update-controller", { controller_id: id, name: "R", type: "unifi", url: "https://192.168.1.6", api_key: "KEY-123" });
      assert.equal(withKey.body.data.auth, "api_key");
      access = await controllerOfLocation(t.deps, key, loc);
      assert.deepEqual(access?.credentials, { apiKey: "KEY-123" });
      const toOmada = await t.call("POST", "create-or-update-controller", { controller_id: id, name: "R", type: "omada", url: "https://192.168.1.5" });
      assert.deepEqual(toOmada.body.message, { username: ["The username field is required."] }, "an Omada controller needs a login");
    });

    it("a RUCKUS northbound interface: its password is required, a user name optional, an API key refused", async () => {
      const url = "https://192.168.1.7:9443";
      const noPass = await t.call("POST", "create-or-update-controller", { name: "Zone", type: "ruckus", url, username: "api" });
      assert.deepEqual(noPass.body.message, { password: ["The password field is required."] });
      const withKey = await t.call("POST", "create-or-update-controller", { name: "Zone", type: "ruckus", url, api_key: "k" });
      assert.equal(withKey.statusCode, 400);
      assert.match(withKey.body.message.api_key[0], /only accepted for unifi/);
      const created = await t.call("POST", "create-or-update-controller", { name: "Zone", type: "ruckus", url, password: "nbi-pass" });
      assert.equal(created.statusCode, 200, JSON.stringify(created.body));
      assert.equal(created.body.data.type, "ruckus");
      assert.equal(created.body.data.site, "");
      const loc = await makeLocation(t);
      await t.call("POST", "location-assign-controller", { location_id: loc, controller_id: created.body.controller_id });
      const key = await import("../../../src/db/secret-box.js").then((m) => m.secretBoxKey(t.db, undefined));
      assert.deepEqual((await controllerOfLocation(t.deps, key, loc))?.credentials, { username: "", password: "nbi-pass" });
      const named = await t.call("POST", "create-or-update-controller", { controller_id: created.body.controller_id, name: "Zone", type: "ruckus", url, username: "api" });
      assert.equal(named.statusCode, 200, JSON.stringify(named.body));
      assert.deepEqual((await controllerOfLocation(t.deps, key, loc))?.credentials, { username: "api", password: "nbi-pass" }, "the password is kept");
    });

    it("assigns and removes a location's controller, and deletes a controller with its assignments", async () => {
      const id = (await t.call("POST", "create-or-update-controller", UNIFI)).body.controller_id;
      const loc = await makeLocation(t);
      assert.equal((await t.call("POST", "location-assign-controller", { location_id: loc, controller_id: id })).body.message, "Controller has been successfully assigned to Location.");
      const removed = await t.call("POST", "location-assign-controller", { location_id: loc, controller_id: 0 });
      assert.equal(removed.body.message, "Controller has been successfully removed from Location.");
      assert.equal(await t.db.selectFrom("location_controllers").selectAll().where("location_id", "=", loc).executeTakeFirst(), undefined);
      await t.call("POST", "location-assign-controller", { location_id: loc, controller_id: id });
      const del = await t.call("POST", "delete-controller", { controller_id: id });
      assert.equal(del.statusCode, 200);
      assert.equal(await t.db.selectFrom("location_controllers").selectAll().where("location_id", "=", loc).executeTakeFirst(), undefined);
      const again = await t.call("POST", "delete-controller", { controller_id: id });
      assert.deepEqual(again.body.message, { controller_id: ["The selected controller_id is invalid."] });
    });

    it("isolates accounts and keeps read-only sub-users from writing", async () => {
      const id = (await t.call("POST", "create-or-update-controller", UNIFI)).body.controller_id;
      const other = await t.newAccount();
      const theirLoc = await makeLocation(t, other.identifier);
      const as = { identifier: other.identifier };
      assert.deepEqual((await t.call("GET", "controller-list", {}, as)).body.data, []);
      const upd = await t.call("POST", "create-or-update-controller", { ...UNIFI, controller_id: id }, as);
      assert.deepEqual(upd.body.message, { controller_id: ["The selected controller_id is invalid."] });
      const assign = await t.call("POST", "location-assign-controller", { location_id: theirLoc, controller_id: id }, as);
      assert.deepEqual(assign.body.message, { controller_id: ["The selected controller_id is invalid."] });
      const mine = await makeLocation(t);
      const cross = await t.call("POST", "location-assign-controller", { location_id: mine, controller_id: id }, as);
      assert.ok(cross.body.message.location_id);
      assert.equal((await t.call("POST", "delete-controller", { controller_id: id }, as)).statusCode, 400);
      const ro = await makeSubUser(t, { readonly: true });
      const roWrite = await t.call("POST", "create-or-update-controller", UNIFI, { identifier: ro.identifier });
      assert.deepEqual(roWrite.body.message, { identifier: ["This identifier is read-only."] });
      assert.equal((await t.call("POST", "delete-controller", { controller_id: id }, { identifier: ro.identifier })).statusCode, 400);
      const roList = await t.call("GET", "controller-list", {}, { identifier: ro.identifier });
      assert.equal(roList.statusCode, 200);
      assert.ok(roList.body.data.some((c: { id: number }) => c.id === id));
    });

    it("assign and delete at once: never a location left on a deleted controller; a double delete deletes once", async () => {
      const RACES = 100;
      let stranded = 0;
      let deletedTwice = 0;
      for (let i = 0; i < RACES; i++) {
        const id = (await t.call("POST", "create-or-update-controller", UNIFI)).body.controller_id;
        const loc = await makeLocation(t);
        const [assign, del] = await Promise.all([
          t.call("POST", "location-assign-controller", { location_id: loc, controller_id: id }),
          t.call("POST", "delete-controller", { controller_id: id }),
        ]);
        assert.ok([200, 400].includes(assign.statusCode), JSON.stringify(assign.body));
        assert.equal(del.statusCode, 200, JSON.stringify(del.body));
        if (await t.db.selectFrom("location_controllers").selectAll().where("location_id", "=", loc).executeTakeFirst()) stranded++;
        const other = (await t.call("POST", "create-or-update-controller", UNIFI)).body.controller_id;
        const both = await Promise.all([t.call("POST", "delete-controller", { controller_id: other }), t.call("POST", "delete-controller", { controller_id: other })]);
        for (const r of both) assert.ok([200, 400].includes(r.statusCode), JSON.stringify(r.body));
        if (both.every((r) => r.statusCode === 200)) deletedTwice++;
      }
      assert.equal(stranded, 0, `${stranded} of ${RACES} locations kept a deleted controller`);
      assert.equal(deletedTwice, 0);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`controller addresses (${dialect})`, () => {
    let closed: TestApp;
    let open: TestApp;
    before(async () => {
      [closed, open] = await Promise.all([createTestApp(dialect), createTestApp(dialect, { CONTROLLER_ALLOW_PRIVATE: "true" })]);
    });
    after(async () => Promise.all([closed?.close(), open?.close()]));

    const save = (t: TestApp, url: string, extra: Record<string, unknown> = {}) =>
      t.call("POST", "create-or-update-controller", { name: "Addr", type: "unifi", url, username: "hotspot", password: "pw", ...extra });

    it("refuses loopback and private addresses unless CONTROLLER_ALLOW_PRIVATE=true, and link-local or reserved ones always, under url", async () => {
      const privateOnes = ["http://127.0.0.1:8443", "http://[::1]:8443", "http://localhost:6379", "https://10.0.0.2:8443", "https://192.168.1.2:8443", "https://[fd12::2]:8043", "http://[2002:7f00:1::]/", "http://[fec0::1]/"];
      const never = ["http://169.254.169.254", "http://[fe80::1]:8443", "http://0.0.0.0:8443", "http://[::]:8443", "http://[::7f00:1]/", "http://192.0.0.1/", "http://[::ffff:169.254.169.254]/"];
      for (const url of [...privateOnes, ...never]) {
        const res = await save(closed, url);
        assert.equal(res.statusCode, 400, url);
        assert.deepEqual(Object.keys(res.body.message), ["url"], `${url}: ${JSON.stringify(res.body)}`);
      }
      assert.match((await save(closed, "http://127.0.0.1:8443")).body.message.url[0], /CONTROLLER_ALLOW_PRIVATE=true/);
      for (const url of privateOnes) assert.equal((await save(open, url)).statusCode, 200, url);
      for (const url of never) {
        const res = await save(open, url);
        assert.equal(res.statusCode, 400, url);
        assert.match(res.body.message.url[0], /never allowed/, url);
      }
      assert.equal((await save(closed, "https://93.184.215.14:8443")).statusCode, 200, "a public address");
      assert.equal(Number((await closed.db.selectFrom("controllers").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n), 1, "only that one written");
    });

    it("an update to a refused address leaves the controller as it was", async () => {
      const id = (await save(closed, "https://93.184.215.14:8443")).body.controller_id;
      const res = await save(closed, "http://169.254.169.254/latest/meta-data", { controller_id: id, name: "Moved" });
      assert.equal(res.statusCode, 400);
      assert.ok(res.body.message.url);
      const row = await closed.db.selectFrom("controllers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      assert.deepEqual([row.name, row.url], ["Addr", "https://93.184.215.14:8443"]);
    });
  });
}
