/**
 * /openapi.json documents exactly the API the app serves: the route list comes from the modules'
 * own route definitions (what buildApp registers), never from a list kept here.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TObject } from "@sinclair/typebox";
import type { ApiRouter } from "../../src/http/api-route.js";
import type { Ctx } from "../../src/modules/context.js";
import { registerApiModules } from "../../src/modules/index.js";
import { type TestApp, createTestApp } from "../helpers/app.js";

interface DeclaredRoute {
  method: "get" | "post";
  url: string;
  summary: string;
  params: string[];
  required: string[];
}

/** Every route the API modules declare, one entry per method. */
function declaredRoutes(): DeclaredRoute[] {
  const out: DeclaredRoute[] = [];
  const recorder: ApiRouter<Ctx> = {
    forgetOwner() {},
    route(def) {
      const params = def.params as TObject;
      for (const m of Array.isArray(def.method) ? def.method : [def.method]) {
        out.push({
          method: m.toLowerCase() as "get" | "post",
          url: def.url,
          summary: def.summary,
          params: Object.keys(params.properties),
          required: (params.required ?? []) as string[],
        });
      }
    },
  };
  registerApiModules(recorder);
  return out;
}

describe("OpenAPI document, reference page and health check", () => {
  let t: TestApp;
  let doc: any;
  const routes = declaredRoutes();
  before(async () => {
    t = await createTestApp("sqlite");
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });
  after(async () => t.close());

  it("derives the routes from the modules: the specification's and the contract's are among them", () => {
    const have = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const must of ["post /api/create-or-update-location", "get /api/get-visits", "post /api/create-sub-user", "get /api/device-models"]) {
      assert.ok(have.has(must), `${must} is not declared`);
    }
    assert.ok(routes.length >= 25, `only ${routes.length} routes declared`);
  });

  it("documents every route the app serves, with its summary, parameters and both responses", async () => {
    assert.equal(doc.openapi, "3.1.0");
    for (const r of routes) {
      const where = `${r.method.toUpperCase()} ${r.url}`;
      const served = await t.app.inject({ method: r.method.toUpperCase() as "GET" | "POST", url: r.url });
      assert.ok(served.statusCode !== 404 && served.statusCode !== 405, `${where} is declared but not served`);
      const op = doc.paths[r.url]?.[r.method];
      assert.ok(op, `${where} is not documented`);
      assert.equal(op.summary, r.summary, where);
      assert.ok(op.responses["200"] && op.responses["400"], `${where} lacks a 200 or 400 response`);
      const documented =
        r.method === "get"
          ? (op.parameters ?? []).filter((p: { in: string }) => p.in === "query").map((p: { name: string }) => p.name)
          : Object.keys(op.requestBody?.content?.["application/json"]?.schema?.properties ?? {});
      assert.deepEqual([...documented].sort(), [...r.params].sort(), `${where} parameters`);
      if (r.method === "post") {
        assert.deepEqual(Object.keys(op.requestBody.content).sort(), ["application/json", "application/x-www-form-urlencoded"], where);
      }
    }
  });

  it("documents no API route that the modules do not declare", () => {
    const declared = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!path.startsWith("/api/")) continue;
      for (const method of Object.keys(item).filter((k) => k === "get" || k === "post")) {
        assert.ok(declared.has(`${method} ${path}`), `${method.toUpperCase()} ${path} is documented but not declared`);
      }
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
