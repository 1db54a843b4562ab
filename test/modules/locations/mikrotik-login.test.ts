/**
 * GET /api/device-mikrotik-login-html: the login.html for a MikroTik device, and its refusals
 * (another model, no location, a deleted location, another account's device), in the API's shape.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { randomMac } from "../../portal/portal-world.js";

for (const dialect of DIALECTS) {
  describe(`device-mikrotik-login-html (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL: "https://wifi.example.com" });
    });
    after(async () => t.close());

    async function device(model: string, locationId?: number, identifier?: string): Promise<{ id: number; mac: string }> {
      const mac = randomMac();
      const dev = await t.call("POST", "create-device", { device_name: "HotSpot", mac_address: mac, model_id: model }, { identifier });
      assert.equal(dev.statusCode, 200, JSON.stringify(dev.body));
      if (locationId !== undefined) {
        const put = await t.call("POST", "device-assign-location", { location_id: locationId, device_id: dev.body.device_id }, { identifier });
        assert.equal(put.statusCode, 200, JSON.stringify(put.body));
      }
      return { id: dev.body.device_id, mac };
    }

    it("answers the file for a MikroTik at a location: its portal page, the router's variables, the device's MAC", async () => {
      const loc = await t.call("POST", "create-or-update-location", locationParams());
      const { id, mac } = await device("mikrotik-cap-ax", loc.body.location_id);
      const url = (await t.call("GET", "get-location", { location_ids: String(loc.body.location_id) })).body.data[0].url as string;
      const res = await t.call("GET", "device-mikrotik-login-html", { device_id: id });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers["content-type"]), /^text\/html; charset=utf-8/);
      assert.equal(res.headers["content-disposition"], 'attachment; filename="login.html"');
      const html = String(res.body);
      assert.ok(html.includes(`<form action="${url}" method="get">`), html);
      assert.ok(html.includes(`name="device-mac" value="${mac}"`));
      for (const v of ["link-login-only", "link-orig-esc", "mac", "ip", "chap-id", "chap-challenge", "error"]) assert.ok(html.includes(`$(${v})`), v);
    });

    it("refuses another model, a device without a location, a deleted location and another account's device", async () => {
      const loc = await t.call("POST", "create-or-update-location", locationParams());
      const cases: [number, string][] = [
        [(await device("openwrt-generic", loc.body.location_id)).id, "The selected device is not a MikroTik model."],
        [(await device("mikrotik-hap-ac2")).id, "The selected device is not assigned to a location."],
      ];
      const gone = await t.call("POST", "create-or-update-location", locationParams());
      const orphan = await device("mikrotik-hap-ac2", gone.body.location_id);
      assert.equal((await t.call("POST", "delete-location", { location_id: gone.body.location_id })).statusCode, 200);
      const other = await t.newAccount();
      const foreign = await device("mikrotik-hap-ac2", undefined, other.identifier);
      for (const [id, sentence] of [...cases, [orphan.id, "The selected device is not assigned to a location."] as [number, string], [foreign.id, "The selected device_id is invalid."] as [number, string]]) {
        const res = await t.call("GET", "device-mikrotik-login-html", { device_id: id });
        assert.equal(res.statusCode, 400, JSON.stringify(res.body));
        assert.deepEqual(res.body, { status: "error", message: { device_id: [sentence] } });
      }
    });
  });
}
