/** The console's CSRF defences as pure rules: the token comparison and the cross-site verdict of sign-in. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FastifyRequest } from "fastify";
import { crossSiteRefusal, sameToken } from "../../src/http/csrf.js";

function req(host: string, headers: Record<string, string>): FastifyRequest {
  return { host, headers } as unknown as FastifyRequest;
}

describe("CSRF rules", () => {
  it("compares tokens whole, whatever the type or length given", () => {
    assert.equal(sameToken("abc123", "abc123"), true);
    assert.equal(sameToken("abc124", "abc123"), false);
    assert.equal(sameToken("abc12", "abc123"), false);
    assert.equal(sameToken("abc1234", "abc123"), false);
    assert.equal(sameToken("", "abc123"), false);
    assert.equal(sameToken(undefined, "abc123"), false);
    assert.equal(sameToken(["abc123"], "abc123"), false, "a header given twice is an array");
    assert.equal(sameToken("", ""), false, "no token expected is no token matched");
  });

  it("lets same-origin and non-browser requests sign in, and refuses those another site's page sends", () => {
    const pub = "https://wifi.example.com";
    const ok: [string, Record<string, string>][] = [
      ["wifi.example.com", {}],
      ["wifi.example.com", { "sec-fetch-site": "same-origin" }],
      ["wifi.example.com", { "sec-fetch-site": "none" }],
      ["wifi.example.com", { origin: "https://wifi.example.com" }],
      ["wifi.example.com", { origin: "http://wifi.example.com" }],
      ["wifi.example.com:443", { origin: "https://wifi.example.com" }],
      ["127.0.0.1:3000", { origin: "http://127.0.0.1:3000" }],
      ["10.0.0.5:3000", { origin: "https://wifi.example.com" }],
    ];
    for (const [host, headers] of ok) assert.equal(crossSiteRefusal(req(host, headers), pub), undefined, `${host} ${JSON.stringify(headers)}`);
    const refused: [string, Record<string, string>][] = [
      ["wifi.example.com", { origin: "https://evil.example" }],
      ["wifi.example.com", { origin: "null" }],
      ["wifi.example.com", { origin: "https://wifi.example.com.evil.example" }],
      ["127.0.0.1:3000", { origin: "http://127.0.0.1:3001" }],
      ["wifi.example.com", { "sec-fetch-site": "cross-site" }],
      ["wifi.example.com", { "sec-fetch-site": "same-site", origin: "https://wifi.example.com" }],
      ["wifi.example.com", { "sec-fetch-site": "cross-site", origin: "https://wifi.example.com" }],
      ["wifi.example.com", { origin: "file:///tmp/x.html" }],
    ];
    for (const [host, headers] of refused) assert.ok(crossSiteRefusal(req(host, headers), pub), `${host} ${JSON.stringify(headers)}`);
  });
});
