import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { clearCookie, cookieHeader, cookieOf, setCookie } from "../../src/http/cookies.js";

async function echo(cookie: string | undefined, name: string): Promise<unknown> {
  const app = Fastify();
  app.get("/", async (request) => ({ value: cookieOf(request, name) ?? null }));
  const res = await app.inject({ method: "GET", url: "/", headers: cookie === undefined ? {} : { cookie } });
  await app.close();
  return res.json().value;
}

describe("cookies", () => {
  it("reads one cookie of the Cookie header as browsers send it", async () => {
    assert.equal(await echo("gwp_sid=abc_DEF-123", "gwp_sid"), "abc_DEF-123");
    assert.equal(await echo("a=1; gwp_sid=abc; b=2", "gwp_sid"), "abc");
    assert.equal(await echo("a=1;gwp_sid=abc;b=2", "gwp_sid"), "abc", "without spaces");
    assert.equal(await echo("gwp_sid=first; gwp_sid=second", "gwp_sid"), "first", "the first of two (the most specific path)");
    assert.equal(await echo("x_gwp_sid=no; gwp_sid_x=no", "gwp_sid"), null, "only the whole name");
    assert.equal(await echo('gwp_sid="quoted"', "gwp_sid"), "quoted");
    assert.equal(await echo("gwp_sid=a%20b", "gwp_sid"), "a b", "percent-encoded");
    assert.equal(await echo("gwp_sid=%E0%A4%A", "gwp_sid"), null, "broken percent-encoding is no value");
    assert.equal(await echo("gwp_sid=eyJ2IjoxfQ.mac=", "gwp_sid"), "eyJ2IjoxfQ.mac=", "= inside the value");
    assert.equal(await echo("gwp_sid=", "gwp_sid"), "");
    assert.equal(await echo("garbage; =x; gwp_sid", "gwp_sid"), null);
    assert.equal(await echo(undefined, "gwp_sid"), null);
  });

  it("writes HttpOnly, SameSite=Lax cookies, Secure when asked, and deletes them", () => {
    assert.equal(cookieHeader("gwp_sid", "abc", { path: "/portal/", secure: false }), "gwp_sid=abc; Path=/portal/; HttpOnly; SameSite=Lax");
    assert.equal(
      cookieHeader("gwp_dev_3", "tok", { path: "/portal/", secure: true, maxAge: 31_536_000 }),
      "gwp_dev_3=tok; Max-Age=31536000; Path=/portal/; HttpOnly; SameSite=Lax; Secure",
    );
    assert.equal(
      cookieHeader("gwp_oauth", "", { path: "/portal/oauth/", secure: false, maxAge: 0 }),
      "gwp_oauth=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/portal/oauth/; HttpOnly; SameSite=Lax",
    );
  });

  it("sends one Set-Cookie per cookie, the last one set for a name winning", async () => {
    const app = Fastify();
    app.get("/", async (_request, reply) => {
      setCookie(reply, "a", "1", { path: "/", secure: false });
      setCookie(reply, "b", "2", { path: "/", secure: false });
      setCookie(reply, "a", "3", { path: "/", secure: false });
      clearCookie(reply, "c", "/portal/oauth/");
      return "ok";
    });
    const res = await app.inject({ method: "GET", url: "/" });
    await app.close();
    assert.deepEqual(res.headers["set-cookie"], [
      "b=2; Path=/; HttpOnly; SameSite=Lax",
      "a=3; Path=/; HttpOnly; SameSite=Lax",
      "c=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/portal/oauth/; HttpOnly; SameSite=Lax",
    ]);
  });
});
