import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toDbDatetime } from "../../../src/db/time.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeLocation, makeSubUser } from "../../helpers/sub-users.js";

const RECORD_KEYS = [
  "create_date",
  "firmware_version",
  "id",
  "last_upgraded",
  "live_status",
  "location_id",
  "mac_address",
  "model_id",
  "name",
  "radius_secret",
  "status",
  "update_date",
  "upgrade",
  "wan_ip",
  "wifi_channel",
];

let macCounter = 0;
/** A MAC no other test (or run) has used: the MAC is unique across the whole service. */
function freshMac(): string {
  const n = (Date.now() * 1000 + ++macCounter) % 2 ** 40;
  return `02:${n.toString(16).padStart(10, "0").match(/../g)!.join(":")}`;
}

for (const dialect of DIALECTS) {
  describe(`devices (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    const create = (params: Record<string, unknown>, opts: Parameters<TestApp["call"]>[3] = {}, method: "GET" | "POST" = "POST") =>
      t.call(method, "create-device", { device_name: "Lobby AP", model_id: "openwrt-generic", mac_address: freshMac(), ...params }, opts);

    it("creates a device by GET, form POST and JSON POST, each with its own RADIUS secret", async () => {
      const secrets = new Set<string>();
      for (const [method, as] of [["GET", undefined], ["POST", "form"], ["POST", "json"]] as const) {
        const res = await create({}, { as }, method);
        assert.equal(res.statusCode, 200, `${method} ${as}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.status, "success");
        assert.equal(res.body.message, "Device has been successfully created.");
        assert.equal(typeof res.body.device_id, "number");
        assert.match(res.body.radius_secret, /^[A-HJ-NP-Za-km-z2-9]{24}$/);
        assert.equal(res.body.data.id, res.body.device_id);
        secrets.add(res.body.radius_secret);
      }
      assert.equal(secrets.size, 3);
    });

    it("stores the MAC in canonical form and reads the record back with every key", async () => {
      const res = await create({ mac_address: "0a-1b-2c-3d-4e-5f", device_name: "  Bar AP  ", model_id: "meraki-mr36" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const read = await t.call("GET", "get-device", { device_ids: String(res.body.device_id) });
      assert.equal(read.statusCode, 200);
      const [d] = read.body.data;
      assert.deepEqual(Object.keys(d).sort(), RECORD_KEYS);
      assert.equal(d.id, res.body.device_id);
      assert.equal(d.mac_address, "0A:1B:2C:3D:4E:5F");
      assert.equal(d.name, "Bar AP");
      assert.equal(d.model_id, "meraki-mr36");
      assert.equal(d.location_id, 0);
      assert.equal(d.upgrade, 0);
      assert.equal(d.last_upgraded, "");
      assert.equal(d.status, "active");
      assert.equal(d.live_status, "never_connected");
      assert.equal(d.radius_secret, res.body.radius_secret);
      assert.equal(typeof d.wan_ip, "string");
      assert.equal(typeof d.wifi_channel, "string");
      assert.equal(typeof d.firmware_version, "string");
      assert.match(d.create_date, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.match(d.update_date, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it("refuses a MAC already taken by any account, whatever its case or separator", async () => {
      const mac = freshMac();
      const first = await create({ mac_address: mac });
      assert.equal(first.statusCode, 200);
      const other = await t.newAccount();
      const taken = { status: "error", message: { mac_address: ["The mac_address has already been taken."] } };
      const again = await create({ mac_address: mac.toLowerCase().replace(/:/g, "-") }, { identifier: other.identifier });
      assert.equal(again.statusCode, 400);
      assert.deepEqual(again.body, taken);
      const mine = await create({ mac_address: mac.toUpperCase() });
      assert.deepEqual(mine.body, taken);
      const theirList = await t.call("GET", "device-list", {}, { identifier: other.identifier });
      assert.deepEqual(theirList.body.data, []);
    });

    it("reports every failing parameter: unknown model, bad MAC, long name, missing fields", async () => {
      const before = await t.call("GET", "device-list");
      const bad = await t.call("GET", "create-device", { device_name: "n".repeat(256), mac_address: "00:11:22:33:44", model_id: "linksys-toaster" });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.body.message, {
        device_name: ["The device_name may not be greater than 255 characters."],
        mac_address: ["The mac_address format is invalid."],
        model_id: ["The selected model_id is invalid."],
      });
      const missing = await t.call("POST", "create-device", {}, { as: "json" });
      assert.deepEqual(missing.body.message, {
        device_name: ["The device_name field is required."],
        mac_address: ["The mac_address field is required."],
        model_id: ["The model_id field is required."],
      });
      for (const mac of ["00:11:22:33:44:GG", "001122334455", "00:11:22:33:44:55:66", "00:11:22:33:44:5"]) {
        const res = await create({ mac_address: mac });
        assert.deepEqual(res.body.message, { mac_address: ["The mac_address format is invalid."] }, mac);
      }
      const afterList = await t.call("GET", "device-list");
      assert.equal(afterList.body.data.length, before.body.data.length);
    });

    it("get-device answers in the order given and refuses 11 ids, bad lists and other accounts' devices", async () => {
      const a = (await create({ device_name: "A" })).body.device_id;
      const b = (await create({ device_name: "B" })).body.device_id;
      const res = await t.call("GET", "get-device", { device_ids: `${b},${a}` });
      assert.deepEqual(
        res.body.data.map((d: { name: string }) => d.name),
        ["B", "A"],
      );
      const many = await t.call("GET", "get-device", { device_ids: Array.from({ length: 11 }, (_, i) => i + 1).join(",") });
      assert.deepEqual(many.body.message, { device_ids: ["The device_ids may not contain more than 10 ids."] });
      const empty = await t.call("GET", "get-device", { device_ids: "1,,2" });
      assert.deepEqual(empty.body.message, { device_ids: ["The device_ids format is invalid."] });
      const other = await t.newAccount();
      const theirs = await t.call("GET", "get-device", { device_ids: String(a) }, { identifier: other.identifier });
      assert.equal(theirs.statusCode, 400);
      assert.deepEqual(theirs.body.message, { device_ids: ["The selected device_ids is invalid."] });
      const unknown = await t.call("GET", "get-device", { device_ids: "999999" });
      assert.deepEqual(unknown.body.message, { device_ids: ["The selected device_ids is invalid."] });
    });

    it("device-list answers the caller's devices by id; location and live status follow the device", async () => {
      const id = (await create({ device_name: "Listed" })).body.device_id;
      const loc = await makeLocation(t);
      const assign = await t.call("POST", "device-assign-location", { location_id: loc, device_id: id });
      assert.equal(assign.statusCode, 200, JSON.stringify(assign.body));
      await t.deps.repos.devices.markHeard(t.db, id, toDbDatetime(new Date()));
      const list = await t.call("GET", "device-list");
      const ids = list.body.data.map((d: { id: number }) => d.id);
      assert.deepEqual(ids, [...ids].sort((x: number, y: number) => x - y));
      const d = list.body.data.find((x: { id: number }) => x.id === id);
      assert.equal(d.location_id, loc);
      assert.equal(d.live_status, "online");
      await t.deps.repos.devices.markHeard(t.db, id, toDbDatetime(new Date(Date.now() - 11 * 60 * 1000)));
      const later = await t.call("GET", "get-device", { device_ids: String(id) });
      assert.equal(later.body.data[0].live_status, "offline");
      const other = await t.newAccount();
      const theirs = await t.call("GET", "device-list", {}, { identifier: other.identifier });
      assert.ok(!theirs.body.data.some((x: { id: number }) => x.id === id), "another account does not list the device");
    });

    it("device-models serves the catalogue create-device accepts", async () => {
      const res = await t.call("GET", "device-models");
      assert.equal(res.statusCode, 200);
      const models = res.body.data as { id: string; vendor: string; name: string }[];
      assert.ok(models.length >= 10 && models.length <= 20, String(models.length));
      for (const id of ["openwrt-generic", "coovachilli", "meraki-mr36", "ubiquiti-uap-ac-lite"]) {
        assert.ok(models.some((m) => m.id === id), id);
      }
      assert.equal(new Set(models.map((m) => m.id)).size, models.length);
      for (const m of models) {
        assert.match(m.id, /^[a-z0-9-]+$/);
        assert.deepEqual(Object.keys(m).sort(), ["id", "name", "vendor"], "the gateway family stays inside the service");
        assert.ok(m.vendor.length > 0 && m.name.length > 0, "each model has a vendor and a name");
        const made = await create({ model_id: m.id });
        assert.equal(made.statusCode, 200, m.id);
      }
    });

    it("rotate-device-secret: a random secret, or the one given (one RADIUS client for many APs); bad ones refused, nothing written", async () => {
      const id = (await create({ device_name: "Zone AP" })).body.device_id;
      const secretOf = async () => (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", id).executeTakeFirstOrThrow()).radius_secret;
      const random = await t.call("POST", "rotate-device-secret", { device_id: id });
      assert.equal(random.statusCode, 200, JSON.stringify(random.body));
      assert.match(random.body.radius_secret, /^[A-HJ-NP-Za-km-z2-9]{24}$/);
      assert.equal(await secretOf(), random.body.radius_secret);
      const chosen = "Zone-Secret_2026!#";
      const set = await t.call("POST", "rotate-device-secret", { device_id: id, radius_secret: chosen });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      assert.equal(set.body.radius_secret, chosen);
      assert.equal(await secretOf(), chosen);
      for (const bad of ["short-secret", "has a space in it!!", "x".repeat(65), "ünicode-secret-1234", "tab\tinside-secret-123"]) {
        const res = await t.call("POST", "rotate-device-secret", { device_id: id, radius_secret: bad });
        assert.equal(res.statusCode, 400, bad);
        assert.deepEqual(Object.keys(res.body.message), ["radius_secret"], JSON.stringify(res.body));
      }
      assert.equal(await secretOf(), chosen, "nothing written");
    });

    it("read-only sub-users may read devices (without secrets) but not create them", async () => {
      const ro = await makeSubUser(t, { readonly: true });
      const rw = await makeSubUser(t, { readonly: false });
      const id = (await create({ device_name: "Parent's" })).body.device_id;
      for (const method of ["GET", "POST"] as const) {
        const res = await create({}, { identifier: ro.identifier }, method);
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.body, { status: "error", message: { identifier: ["This identifier is read-only."] } });
      }
      const read = await t.call("GET", "get-device", { device_ids: String(id) }, { identifier: ro.identifier });
      assert.equal(read.statusCode, 200);
      assert.equal(read.body.data[0].name, "Parent's");
      assert.ok(!("radius_secret" in read.body.data[0]), "no radius_secret for a read-only sub-user");
      const list = await t.call("GET", "device-list", {}, { identifier: ro.identifier });
      assert.ok(list.body.data.some((d: { id: number }) => d.id === id), "the read-only sub-user lists the parent's device");
      assert.ok(list.body.data.every((d: object) => !("radius_secret" in d)), "no radius_secret in the list for a read-only sub-user");
      const models = await t.call("GET", "device-models", {}, { identifier: ro.identifier });
      assert.equal(models.statusCode, 200);

      const made = await create({ device_name: "By staff" }, { identifier: rw.identifier });
      assert.equal(made.statusCode, 200);
      const parentView = await t.call("GET", "get-device", { device_ids: String(made.body.device_id) });
      assert.equal(parentView.body.data[0].name, "By staff");
      assert.equal(parentView.body.data[0].radius_secret, made.body.radius_secret);
    });
  });
}
