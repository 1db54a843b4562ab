/**
 * Routes compile their parameter schema on their first call (a faster start); every schema the API
 * modules declare still has to compile, which this checks for all of them at once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ApiRouter } from "../../src/http/api-route.js";
import { compileDeclaredParams, compileParams } from "../../src/http/validation.js";
import type { Ctx } from "../../src/modules/context.js";
import { registerApiModules } from "../../src/modules/index.js";

describe("route parameter schemas", () => {
  it("every schema the API modules declare compiles, and a parser compiles its own on first use", () => {
    let routes = 0;
    const recorder: ApiRouter<Ctx> = {
      forgetOwner() {},
      route(def) {
        compileParams(def.params);
        routes++;
      },
    };
    registerApiModules(recorder);
    assert.ok(routes > 50, `${routes} routes`);
    assert.equal(compileDeclaredParams(), routes);
    assert.equal(compileDeclaredParams(), 0, "compiled once");
  });
});
