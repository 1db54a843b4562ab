/**
 * Headers that keep data where it belongs: JSON answers (the API's, the console's, errors) are
 * never stored by a cache, and the API reference (/docs) has a Content-Security-Policy that lets
 * nobody frame it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";

describe("response headers", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp("sqlite", { API_RATE_LIMIT_PER_MINUTE: "1000" });
  });
  after(async () => t.close());

  it("marks every JSON answer no-store: reads of guests and sub-users, writes, errors, the console's", async () => {
    const loc = await t.call("POST", "create-or-update-location", {
      location_name: "Cafe", address1: "1 Main St", town: "Springfield", state: "IL", zipcode: "62701",
      country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago",
    });
    assert.equal(loc.statusCode, 200);
    const answers = {
      "location-list": await t.call("GET", "location-list"),
      "social-user-list": await t.call("GET", "social-user-list", { location_ids: String(loc.body.location_id), from_date: "2026-01-01", to_date: "2026-01-31" }),
      "subuser-list": await t.call("GET", "subuser-list"),
      "create-or-update-location": loc,
      "a 400": await t.call("GET", "get-location", { location_ids: "999999" }),
      "unknown identifier": await t.call("GET", "location-list", {}, { identifier: "nope-nope-nope-nope-nope" }),
      "a 404": await t.call("GET", "/api/no-such-endpoint"),
      "console sign-in refused": await t.call("POST", "/console/api/sign-in", { email: "a@example.com", password: "wrong" }, { identifier: null }),
      "console without a session": await t.call("GET", "/console/api/me", {}, { identifier: null }),
      healthz: await t.call("GET", "/healthz", {}, { identifier: null }),
    };
    for (const [name, res] of Object.entries(answers)) {
      assert.match(String(res.headers["content-type"]), /^application\/json/, name);
      assert.equal(res.headers["cache-control"], "no-store", `${name} (${res.statusCode})`);
    }
  });

  it("keeps the Cache-Control a route sets itself (public assets)", async () => {
    const shell = await t.app.inject({ method: "GET", url: "/console" });
    const asset = /\/console\/assets\/[^"]+\.js/.exec(shell.body)?.[0];
    assert.ok(asset, "the console shell names its script");
    const res = await t.app.inject({ method: "GET", url: asset });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers["cache-control"]), /immutable/);
  });

  it("gives /docs a Content-Security-Policy with frame-ancestors 'none', on the page and its files", async () => {
    for (const url of ["/docs", "/docs/", "/docs/static/index.html", "/docs/static/swagger-initializer.js", "/docs/static/swagger-ui-bundle.js"]) {
      const res = await t.app.inject({ method: "GET", url });
      assert.ok(res.statusCode === 200 || res.statusCode === 302, `${url}: ${res.statusCode}`);
      const csp = String(res.headers["content-security-policy"] ?? "");
      assert.match(csp, /frame-ancestors 'none'/, `${url}: ${csp}`);
      assert.match(csp, /script-src 'self'(;|$)/, `${url}: only the page's own scripts`);
      assert.match(csp, /object-src 'none'/);
      // Browsers that predate frame-ancestors read X-Frame-Options on documents.
      if (!url.endsWith(".js")) assert.equal(res.headers["x-frame-options"], "DENY", url);
    }
  });
});
