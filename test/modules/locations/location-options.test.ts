import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeLocation } from "../../helpers/sub-users.js";

for (const dialect of DIALECTS) {
  describe(`location options (${dialect})`, () => {
    let t: TestApp;
    let locationId: number;
    before(async () => {
      t = await createTestApp(dialect);
      locationId = await makeLocation(t);
    });
    after(async () => t.close());

    it("sets the five values (omitted ones to 0) and keeps DNS and lists when omitted", async () => {
      const set = await t.call("POST", "set-session-and-bandwidth-info", {
        location_id: locationId,
        session_time_limit: 3600,
        max_bandwidth: 125000,
        daily_bandwidth_cap: 2 ** 40,
        content_filter: "1",
        dns_server_1: "1.1.1.1",
        whitelist: "example.com",
      });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      assert.equal(set.body.message, "Location Session and Bandwidth Info has been set.");
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, max_bandwidth_up: 1000 });
      const read = await t.call("GET", "get-location-options", { location_id: locationId });
      assert.deepEqual(read.body.data, {
        location_id: locationId,
        session_time_limit: { state: false, value: 0 },
        daily_bandwidth_cap: { state: false, value: 0 },
        content_filter: { state: false },
        bandwidth_throttle_upanddown: { state_up: true, state_down: false, value: { up: 1000, down: 0 } },
        dns_server_1: "1.1.1.1",
        dns_server_2: "",
        blacklist: "",
        whitelist: "example.com",
      });
    });

    it("takes the largest value each column holds and refuses one past it, on every database", async () => {
      const largest = { session_time_limit: 2 ** 31 - 1, max_bandwidth: 2 ** 50, max_bandwidth_up: 2 ** 50, daily_bandwidth_cap: 2 ** 50 };
      const ok = await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, ...largest });
      assert.equal(ok.statusCode, 200, JSON.stringify(ok.body));
      const read = await t.call("GET", "get-location-options", { location_id: locationId });
      assert.equal(read.body.data.session_time_limit.value, 2 ** 31 - 1);
      assert.equal(read.body.data.daily_bandwidth_cap.value, 2 ** 50);
      for (const [param, max] of Object.entries(largest)) {
        const res = await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, [param]: String(max + 1) });
        assert.equal(res.statusCode, 400, `${param}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body.message, { [param]: [`The ${param} may not be greater than ${max}.`] });
      }
    });
  });
}
