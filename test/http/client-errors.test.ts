/**
 * Requests Node's HTTP parser refuses before Fastify routes them (headers or URL too large) still
 * answer in the API's error shape, over a real socket (inject() would skip the parser).
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";

/** Sends raw bytes, returns everything the server answers until it closes. */
function rawHttp(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1");
    let out = "";
    s.on("data", (d) => {
      out += d;
    });
    s.on("error", (err) => (out ? resolve(out) : reject(err)));
    s.on("close", () => resolve(out));
    s.setTimeout(5000, () => s.destroy());
    s.write(request);
  });
}

function parse(raw: string): { status: number; contentType: string; body: any } {
  const [head, body] = raw.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? "";
  return { status, contentType, body: JSON.parse(body) };
}

describe("errors before routing, in the API's shape", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp("sqlite");
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(async () => t.close());

  it("answers 431 for headers too large", async () => {
    const res = parse(await rawHttp(port, `GET /api/location-list HTTP/1.1\r\nHost: x\r\nidentifier: ${t.identifier}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
    assert.equal(res.status, 431);
    assert.match(res.contentType, /^application\/json/);
    assert.deepEqual(res.body, { status: "error", message: { request: ["The request headers or URL are too large."] } });
  });

  it("answers 431 for a URL too large", async () => {
    const res = parse(await rawHttp(port, `GET /api/location-list?identifier=${t.identifier}&x=${"b".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    assert.equal(res.status, 431);
    assert.deepEqual(res.body, { status: "error", message: { request: ["The request headers or URL are too large."] } });
  });

  it("answers an oversized HEAD with the 431's headers and no body", async () => {
    const raw = await rawHttp(port, `HEAD /api/location-list HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    const [head, ...rest] = raw.split("\r\n\r\n");
    assert.match(head, /^HTTP\/1\.1 431 /);
    assert.match(head, /content-type: application\/json/i);
    assert.equal(rest.join(""), "", "nothing after the headers");
  });

  it("answers HEAD with headers only, whatever the status", async () => {
    for (const path of ["/healthz", `/api/location-list?identifier=${t.identifier}`, "/api/location-list", "/no/such/path", "/docs/", "/openapi.json"]) {
      const raw = await rawHttp(port, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const [head, ...rest] = raw.split("\r\n\r\n");
      assert.match(head, /^HTTP\/1\.1 \d{3} /, path);
      assert.equal(rest.join(""), "", `${path}: ${head.split("\r\n")[0]} with a body`);
    }
  });

  it("answers 400 for a request line that is not HTTP", async () => {
    const res = parse(await rawHttp(port, "HELLO THERE\r\n\r\n"));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { status: "error", message: { request: ["The request could not be understood."] } });
  });
});
