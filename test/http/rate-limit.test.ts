/**
 * API_RATE_LIMIT_PER_MINUTE: calls per minute per caller, in the API's error shape with Retry-After;
 * unknown identifiers are limited per client address before anything is looked up.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Fastify from "fastify";
import { clientAddressKey, minuteLimit, registerRateLimits } from "../../src/http/rate-limit.js";
import { type TestApp, createTestApp } from "../helpers/app.js";

const LIMIT = 3;
const LIMITED = { status: "error", message: { rate_limit: ["Too many requests. Try again later."] } };

describe("API rate limit", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp("sqlite", { API_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  after(async () => t.close());

  const list = (identifier: string, remoteAddress = "198.51.100.1") =>
    t.app.inject({ method: "GET", url: "/api/location-list", headers: { identifier }, remoteAddress });

  it("answers 429 in the API's error shape with Retry-After once a caller is over the limit", async () => {
    const { identifier } = await t.newAccount();
    for (let i = 0; i < LIMIT; i++) assert.equal((await list(identifier)).statusCode, 200, `call ${i + 1}`);
    const over = await list(identifier);
    assert.equal(over.statusCode, 429);
    assert.deepEqual(over.json(), LIMITED);
    const wait = Number(over.headers["retry-after"]);
    assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${over.headers["retry-after"]}`);
    assert.equal(over.headers["x-ratelimit-limit"], undefined, "no headers the API never sent");
  });

  it("keeps one window per caller, wherever its calls come from", async () => {
    const a = await t.newAccount();
    const b = await t.newAccount();
    for (let i = 0; i < LIMIT; i++) await list(a.identifier, `198.51.100.${10 + i}`);
    assert.equal((await list(a.identifier, "198.51.100.99")).statusCode, 429, "another address does not reset a caller");
    assert.equal((await list(b.identifier)).statusCode, 200, "another caller has its own window");
  });

  it("limits unknown identifiers per address, before looking anything up", async () => {
    const address = "203.0.113.7";
    for (let i = 0; i < LIMIT; i++) {
      const res = await list(`made-up-${i}`, address);
      assert.deepEqual(res.json(), { status: "error", message: { identifier: ["The identifier is invalid."] } });
    }
    assert.deepEqual((await list("made-up-again", address)).json(), LIMITED);
    // A real identifier never seen before is refused too: the address was counted before any look-up.
    const fresh = await t.newAccount();
    assert.equal((await list(fresh.identifier, address)).statusCode, 429);
    assert.equal((await list(fresh.identifier, "203.0.113.8")).statusCode, 200, "other addresses are not limited");
  });
});

describe("API rate limit off (the default)", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp("sqlite");
  });
  after(async () => t.close());

  it("never answers 429", async () => {
    for (let i = 0; i < 50; i++) {
      const res = await t.call("GET", "location-list");
      assert.equal(res.statusCode, 200);
    }
  });
});

describe("minute limits (the API's and the portal's)", () => {
  it("count hits per key within a minute, each limiter on its own, and 0 limits nothing", async () => {
    const app = Fastify();
    await registerRateLimits(app);
    const limits = { two: minuteLimit(app, "two", 2), otherTwo: minuteLimit(app, "other-two", 2), off: minuteLimit(app, "off", 0) };
    // A limiter reads the request's route options: it is called from a route, with the real request.
    app.get("/", async (request) => {
      const { limiter, key } = request.query as { limiter: keyof typeof limits; key: string };
      return { wait: (await limits[limiter](request, key)) ?? null };
    });
    const hit = async (limiter: keyof typeof limits, key: string) =>
      (await app.inject({ method: "GET", url: "/", query: { limiter, key } })).json().wait as number | null;
    assert.equal(await hit("two", "a"), null);
    assert.equal(await hit("two", "a"), null);
    const wait = await hit("two", "a");
    assert.ok(wait !== null && wait >= 1 && wait <= 60, `over the limit: retry in ${wait} s`);
    assert.equal(await hit("two", "b"), null, "another key has its own window");
    assert.equal(await hit("otherTwo", "a"), null, "another limiter has its own counters");
    for (let i = 0; i < 5; i++) assert.equal(await hit("off", "a"), null);
    await app.close();
  });

  it("count a client by its address: IPv4 as is, IPv4-mapped unwrapped, IPv6 by its /64", () => {
    assert.equal(clientAddressKey("203.0.113.7"), "203.0.113.7");
    assert.equal(clientAddressKey("::ffff:203.0.113.7"), "203.0.113.7");
    assert.equal(clientAddressKey("2001:db8:1:2::1"), clientAddressKey("2001:0DB8:0001:0002:ffff:1:2:3"));
    assert.equal(clientAddressKey("64:ff9b::192.0.2.33"), clientAddressKey("64:ff9b::1"));
    assert.notEqual(clientAddressKey("2001:db8:1:2::1"), clientAddressKey("2001:db8:1:3::1"));
    assert.notEqual(clientAddressKey("203.0.113.7"), clientAddressKey("203.0.113.8"));
  });
});
