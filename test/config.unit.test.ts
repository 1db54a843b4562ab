import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../src/config.js";

describe("TRUST_PROXY", () => {
  it("takes true, false, or the proxies' addresses and CIDRs, and refuses anything else by name", () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: "true" }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: "0" }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: "10.0.0.2, 192.168.0.0/16,::1, fd00::/8" }).trustProxy, "10.0.0.2,192.168.0.0/16,::1,fd00::/8");
    for (const bad of ["2", "10.0.0.0/33", "proxy.local", "10.0.0.1/8/1", "fd00::/129"]) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), (e: unknown) => e instanceof ConfigError && /^TRUST_PROXY must be/.test(e.message), bad);
    }
  });
});

describe("LOG_REQUESTS", () => {
  it("is on unless set to false, and refuses anything else by name", () => {
    assert.equal(loadConfig({}).logRequests, true);
    assert.equal(loadConfig({ LOG_REQUESTS: "false" }).logRequests, false);
    assert.equal(loadConfig({ LOG_REQUESTS: "on" }).logRequests, true);
    assert.throws(() => loadConfig({ LOG_REQUESTS: "sometimes" }), (e: unknown) => e instanceof ConfigError && /^LOG_REQUESTS must be true or false/.test(e.message));
  });
});
