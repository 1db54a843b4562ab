import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";

/** Every route of the specification and of CONTRACT section 1 and 6. */
const ROUTES: [string, string][] = [
  ["post", "/api/create-or-update-location"],
  ["get", "/api/get-location"],
  ["post", "/api/delete-location"],
  ["post", "/api/location-assign-campaign"],
  ["post", "/api/device-assign-location"],
  ["get", "/api/get-location-devices"],
  ["get", "/api/get-location-options"],
  ["post", "/api/set-session-and-bandwidth-info"],
  ["post", "/api/create-or-update-campaign"],
  ["get", "/api/get-campaign"],
  ["post", "/api/delete-campaign"],
  ["get", "/api/social-user-list"],
  ["get", "/api/get-social-user-profile"],
  ["get", "/api/create-device"],
  ["post", "/api/create-device"],
  ["get", "/api/get-device"],
  ["get", "/api/get-social-logins"],
  ["get", "/api/get-visits"],
  ["get", "/api/subuser-list"],
  ["get", "/api/create-sub-user"],
  ["post", "/api/create-sub-user"],
  ["get", "/api/location-list"],
  ["get", "/api/campaign-list"],
  ["get", "/api/device-list"],
  ["get", "/api/device-models"],
];

describe("OpenAPI document, reference page and health check", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp("sqlite");
  });
  after(async () => t.close());

  it("describes every route with its parameters and responses", async () => {
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, "3.1.0");
    for (const [method, path] of ROUTES) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method.toUpperCase()} ${path} is not documented`);
      assert.ok(op.summary, `${path} has no summary`);
      assert.ok(op.responses["200"] && op.responses["400"], `${path} lacks a 200 or 400 response`);
    }
  });

  it("serves the interactive reference at /docs", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/" });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers["content-type"] as string, /text\/html/);
    assert.match(res.body, /swagger/i);
  });

  it("answers /healthz", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, "success");
  });
});
