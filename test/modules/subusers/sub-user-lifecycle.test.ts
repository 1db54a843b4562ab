/**
 * Sub-users with a lifecycle and a scope: update, disable, enable and delete through the API, taking
 * effect at the next call on another instance with its own connection; a scope of locations outside
 * which the sub-user's calls are refused like another account's; one password rule for everyone.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { createAppDeps } from "../../../src/app-deps.js";
import { buildApp } from "../../../src/app.js";
import { loadConfig } from "../../../src/config.js";
import { type DB, createDatabase } from "../../../src/db/database.js";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS, PG_URL } from "../../helpers/db.js";
import { subUserParams } from "../../helpers/sub-users.js";
import { waitUntil } from "../../helpers/wait.js";

let n = 0;

for (const dialect of DIALECTS) {
  describe(`sub-user lifecycle and scope (${dialect})`, () => {
    let t: TestApp;
    let otherDb: DB;
    let other: FastifyInstance;
    let locA: number;
    let locB: number;
    before(async () => {
      t = await createTestApp(dialect);
      // A second instance: its own connection to the same database, as a second process has.
      otherDb = dialect === "postgres" ? createDatabase(PG_URL, { searchPath: t.schema }) : createDatabase(t.url);
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false" });
      other = await buildApp({ config, db: otherDb, deps: createAppDeps(otherDb), logger: false });
      await other.ready();
      locA = (await t.call("POST", "create-or-update-location", locationParams({ location_name: "Pier A" }))).body.location_id;
      locB = (await t.call("POST", "create-or-update-location", locationParams({ location_name: "Pier B" }))).body.location_id;
    });
    after(async () => {
      await other?.close();
      await otherDb?.destroy();
      await t.close();
    });

    const onOther = (identifier: string, path: string, query: Record<string, string> = {}) =>
      other.inject({ method: "GET", url: `/api/${path}`, query: { identifier, ...query } });

    async function create(overrides: Record<string, unknown> = {}) {
      const params = subUserParams(locA, { email_address: `life${++n}-${Date.now()}@example.com`, ...overrides });
      const res = await t.call("POST", "create-sub-user", params);
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return { id: res.body.sub_user_id as number, identifier: res.body.identifier as string, email: String(params.email_address) };
    }
    const listed = async (id: number) => (await t.call("GET", "subuser-list")).body.data.find((s: { id: number }) => s.id === id);

    it("updates names, e-mail, phone, read-only, quick report and scope; fields not given keep their value", async () => {
      const s = await create();
      const res = await t.call("POST", "update-sub-user", { sub_user_id: s.id, first_name: "Grace", email: "Grace.H@Example.com", phone_number: "+44 117 496 0123", readonly: "true", location_ids: `${locB}` });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.message, "Sub User has been successfully updated.");
      const row = await listed(s.id);
      assert.equal(row.first_name, "Grace");
      assert.equal(row.last_name, "Lovelace");
      assert.equal(row.email, "grace.h@example.com");
      assert.equal(row.phone_number, "+44 117 496 0123");
      assert.equal(row.readonly, 1);
      assert.deepEqual(row.location_ids, [locB]);
      assert.equal(row.disabled, 0);
      // Read-only now, on the other instance too.
      assert.equal((await other.inject({ method: "POST", url: "/api/create-or-update-location", payload: { identifier: s.identifier, location_id: locB, ...locationParams() } })).statusCode, 400);
      const back = await t.call("POST", "update-sub-user", { sub_user_id: s.id, location_ids: "", readonly: "0", phone_number: "" });
      assert.equal(back.statusCode, 200);
      const again = await listed(s.id);
      assert.deepEqual(again.location_ids, []);
      assert.equal(again.phone_number, "");
      assert.equal(again.readonly, 0);
    });

    it("refuses what it cannot take, with the field named: a taken e-mail, a short password, another account's sub-user or location", async () => {
      const a = await create();
      const b = await create();
      const taken = await t.call("POST", "update-sub-user", { sub_user_id: a.id, email_address: b.email.toUpperCase() });
      assert.deepEqual(taken.body.message, { email_address: ["The email_address has already been taken."] });
      const short = await t.call("POST", "update-sub-user", { sub_user_id: a.id, password: "123456789" });
      assert.deepEqual(short.body.message, { password: ["The password must be at least 10 characters."] });
      const createShort = await t.call("POST", "create-sub-user", subUserParams(locA, { password: "12345" }));
      assert.deepEqual(createShort.body.message, { password: ["The password must be at least 10 characters."] }, "owners' rule for sub-users too");
      const stranger = await t.newAccount();
      const foreignLoc = (await t.call("POST", "create-or-update-location", locationParams(), { identifier: stranger.identifier })).body.location_id;
      for (const [path, params, param] of [
        ["update-sub-user", { sub_user_id: a.id, first_name: "X" }, "sub_user_id"],
        ["disable-sub-user", { sub_user_id: a.id }, "sub_user_id"],
        ["delete-sub-user", { sub_user_id: a.id }, "sub_user_id"],
      ] as const) {
        const res = await t.call("POST", path, params, { identifier: stranger.identifier });
        assert.deepEqual(res.body.message, { [param]: [`The selected ${param} is invalid.`] }, path);
      }
      const foreign = await t.call("POST", "update-sub-user", { sub_user_id: a.id, location_ids: `${locA},${foreignLoc}` });
      assert.deepEqual(foreign.body.message, { location_ids: ["The selected location_ids is invalid."] });
      const bySub = await t.call("POST", "update-sub-user", { sub_user_id: b.id, first_name: "X" }, { identifier: a.identifier });
      assert.deepEqual(bySub.body.message, { identifier: ["This identifier may not manage sub-users."] });
      assert.equal((await listed(a.id)).first_name, "Ada", "nothing was written");
    });

    it("disables and enables: the identifier stops and starts again at the next call on another instance", async () => {
      const s = await create();
      assert.equal((await onOther(s.identifier, "location-list")).statusCode, 200, "cached on the other instance");
      assert.equal((await t.call("POST", "disable-sub-user", { sub_user_id: s.id })).body.message, "Sub User has been successfully disabled.");
      await waitUntil("refused on the other instance", async () => (await onOther(s.identifier, "location-list")).statusCode === 400);
      assert.deepEqual((await onOther(s.identifier, "location-list")).json().message, { identifier: ["The identifier is invalid."] });
      assert.equal((await listed(s.id)).disabled, 1);
      assert.equal((await t.call("POST", "enable-sub-user", { sub_user_id: s.id })).body.message, "Sub User has been successfully enabled.");
      await waitUntil("served on the other instance", async () => (await onOther(s.identifier, "location-list")).statusCode === 200);
    });

    it("deletes: the identifier and the console sign-in stop, and the list no longer has it", async () => {
      const s = await create();
      const signIn = await other.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: s.email, password: "s3cret-pass" }, remoteAddress: `10.77.${n}.1` });
      assert.equal(signIn.statusCode, 200, signIn.body);
      const cookie = String(signIn.headers["set-cookie"]).split(";")[0];
      assert.equal((await other.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).statusCode, 200);
      assert.equal((await onOther(s.identifier, "location-list")).statusCode, 200);
      assert.equal((await t.call("POST", "delete-sub-user", { sub_user_id: s.id })).body.message, "Sub User has been successfully deleted.");
      await waitUntil("refused on the other instance", async () => (await onOther(s.identifier, "location-list")).statusCode === 400);
      assert.equal((await other.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).statusCode, 401);
      assert.equal(await listed(s.id), undefined);
      const again = await t.call("POST", "delete-sub-user", { sub_user_id: s.id });
      assert.deepEqual(again.body.message, { sub_user_id: ["The selected sub_user_id is invalid."] });
    });

    it("a disabled sub-user cannot sign in to the console, and its sessions end", async () => {
      const s = await create();
      const first = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: s.email, password: "s3cret-pass" }, remoteAddress: `10.78.${n}.1` });
      assert.equal(first.statusCode, 200);
      const cookie = String(first.headers["set-cookie"]).split(";")[0];
      await t.call("POST", "disable-sub-user", { sub_user_id: s.id });
      assert.equal((await t.app.inject({ method: "GET", url: "/console/api/me", headers: { cookie } })).statusCode, 401);
      const refused = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: s.email, password: "s3cret-pass" }, remoteAddress: `10.78.${n}.2` });
      assert.equal(refused.statusCode, 401, "answered like a wrong password");
    });

    it("a scoped sub-user sees and changes its locations only; the rest is refused like another account's", async () => {
      const s = await create({ location_ids: `${locA}` });
      const list = await t.call("GET", "location-list", {}, { identifier: s.identifier });
      assert.deepEqual(list.body.data.map((l: { id: number }) => l.id), [locA]);
      const read = await t.call("GET", "get-location", { location_ids: `${locB}` }, { identifier: s.identifier });
      assert.deepEqual(read.body.message, { location_ids: ["The selected location_ids is invalid."] });
      const write = await t.call("POST", "create-or-update-location", { ...locationParams(), location_id: locB }, { identifier: s.identifier });
      assert.deepEqual(write.body.message, { location_id: ["The selected location_id is invalid."] });
      const own = await t.call("POST", "create-or-update-location", { ...locationParams({ location_name: "Pier A, renamed" }), location_id: locA }, { identifier: s.identifier });
      assert.equal(own.statusCode, 200, JSON.stringify(own.body));
      const createLoc = await t.call("POST", "create-or-update-location", locationParams(), { identifier: s.identifier });
      assert.deepEqual(createLoc.body.message, { identifier: ["This identifier may not create locations; it works within the locations of its scope."] });
      const day = new Date().toISOString().slice(0, 10);
      const stats = await t.call("GET", "get-social-logins", { location_id: `${locA},${locB}`, from_date: day, to_date: day }, { identifier: s.identifier });
      assert.deepEqual(stats.body.message, { location_id: ["The selected location_id is invalid."] });
      const dev = await t.call("POST", "create-device", { device_name: "AP", mac_address: `02:00:00:${String(n).padStart(2, "0")}:00:01`, model_id: "coovachilli" });
      assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
      assert.equal((await t.call("POST", "device-assign-location", { device_id: dev.body.device_id, location_id: locB })).statusCode, 200);
      const devices = await t.call("GET", "device-list", {}, { identifier: s.identifier });
      assert.equal(devices.body.data.some((d: { id: number }) => d.id === dev.body.device_id), false);
    });
  });
}
