/**
 * The outbound address rule (webhooks and controllers): how every kind of address is classed, the
 * refusals' sentences, and the lookup that refuses at connect time a name resolving to loopback.
 */
import assert from "node:assert/strict";
import { type Server, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { type AddressKind, addressKind, addressRefusal, guardedLookup, literalRefusal, targetRefusal, urlRefusal } from "../src/outbound-address.js";

const CASES: [string, AddressKind, string][] = [
  // IPv4
  ["93.184.215.14", "public", "global unicast"],
  ["8.8.8.8", "public", "global unicast"],
  ["127.0.0.1", "private", "loopback"],
  ["127.255.255.254", "private", "loopback /8"],
  ["10.2.3.4", "private", "RFC 1918"],
  ["172.16.0.1", "private", "RFC 1918"],
  ["172.31.255.255", "private", "RFC 1918"],
  ["172.32.0.1", "public", "just past 172.16/12"],
  ["192.168.1.1", "private", "RFC 1918"],
  ["100.64.0.1", "private", "carrier-grade NAT"],
  ["100.127.255.255", "private", "carrier-grade NAT"],
  ["100.128.0.1", "public", "just past 100.64/10"],
  ["169.254.169.254", "forbidden", "link-local, cloud metadata"],
  ["169.254.0.1", "forbidden", "link-local"],
  ["100.100.100.200", "forbidden", "Alibaba Cloud metadata"],
  ["0.0.0.0", "forbidden", "unspecified"],
  ["0.1.2.3", "forbidden", "this network"],
  ["255.255.255.255", "forbidden", "broadcast"],
  ["224.0.0.1", "forbidden", "multicast"],
  ["239.255.255.250", "forbidden", "multicast"],
  ["240.0.0.1", "forbidden", "reserved"],
  ["192.0.0.1", "forbidden", "IETF protocol assignments 192.0.0.0/24"],
  ["192.0.0.170", "forbidden", "NAT64 discovery 192.0.0.0/24"],
  ["192.0.2.1", "forbidden", "documentation"],
  ["198.51.100.7", "forbidden", "documentation"],
  ["203.0.113.9", "forbidden", "documentation"],
  ["198.18.0.1", "forbidden", "benchmarking"],
  ["192.88.99.1", "forbidden", "6to4 relay anycast"],
  // IPv6
  ["2606:4700::1111", "public", "global unicast"],
  ["2a00:1450:4007:80e::200e", "public", "global unicast"],
  ["::1", "private", "loopback"],
  ["::", "forbidden", "unspecified"],
  ["fe80::1", "forbidden", "link-local"],
  ["fe80::1%eth0", "forbidden", "link-local with a zone id"],
  ["febf:ffff::1", "forbidden", "link-local, end of fe80::/10"],
  ["fc00::5", "private", "unique local"],
  ["fd12:3456::1", "private", "unique local"],
  ["fd00:ec2::254", "forbidden", "AWS metadata"],
  ["fec0::1", "private", "deprecated site-local"],
  ["ff02::1", "forbidden", "multicast"],
  ["2001:db8::1", "forbidden", "documentation"],
  ["3fff::1", "forbidden", "documentation (RFC 9637)"],
  ["100::1", "forbidden", "discard"],
  ["2001:2::1", "forbidden", "benchmarking"],
  // IPv6 carrying IPv4: classed as the IPv4 address they reach
  ["::ffff:127.0.0.1", "private", "IPv4-mapped loopback"],
  ["::ffff:7f00:1", "private", "IPv4-mapped loopback, hex"],
  ["::ffff:169.254.169.254", "forbidden", "IPv4-mapped metadata"],
  ["::ffff:10.0.0.1", "private", "IPv4-mapped RFC 1918"],
  ["::ffff:8.8.8.8", "public", "IPv4-mapped public"],
  ["::ffff:0:7f00:1", "private", "SIIT (RFC 6145) loopback"],
  ["::7f00:1", "forbidden", "IPv4-compatible (deprecated)"],
  ["::127.0.0.1", "forbidden", "IPv4-compatible loopback, dotted"],
  ["FE80::1", "forbidden", "link-local, upper case"],
  ["::8.8.8.8", "forbidden", "IPv4-compatible (deprecated), even of a public address"],
  ["64:ff9b::7f00:1", "private", "NAT64 of loopback"],
  ["64:ff9b::a9fe:a9fe", "forbidden", "NAT64 of the metadata address"],
  ["64:ff9b::808:808", "public", "NAT64 of a public address"],
  ["64:ff9b:1::1", "private", "local-use NAT64 (RFC 8215)"],
  ["2002:7f00:1::", "private", "6to4 of loopback"],
  ["2002:a9fe:a9fe::1", "forbidden", "6to4 of the metadata address"],
  ["2002:c0a8:101::1", "private", "6to4 of 192.168.1.1"],
  ["2002:808:808::1", "public", "6to4 of a public address"],
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", "private", "Teredo, client 127.0.0.1"],
  ["2001:0:4136:e378:8000:63bf:5601:5601", "forbidden", "Teredo, client 169.254.169.254"],
  ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "public", "Teredo, public server and client"],
  ["2001:0:a9fe:a9fe:8000:63bf:f7f7:f7f7", "forbidden", "Teredo, server 169.254.169.254"],
  // not addresses
  ["localhost", "forbidden", "a name"],
  ["1.2.3", "forbidden", "short IPv4"],
  ["0x7f.1", "forbidden", "non-canonical IPv4"],
  ["", "forbidden", "empty"],
];

describe("outbound address rule", () => {
  it("classes every kind of address", () => {
    for (const [ip, kind, what] of CASES) assert.equal(addressKind(ip), kind, `${ip} (${what})`);
  });

  it("names the variable that allows private addresses, and never allows forbidden ones", () => {
    const closed = { allowPrivate: false, variable: "CONTROLLER_ALLOW_PRIVATE" };
    const open = { allowPrivate: true, variable: "CONTROLLER_ALLOW_PRIVATE" };
    assert.equal(addressRefusal("127.0.0.1", closed), "127.0.0.1 is a private or loopback address (allowed only with CONTROLLER_ALLOW_PRIVATE=true)");
    assert.equal(addressRefusal("127.0.0.1", open), undefined);
    assert.match(addressRefusal("169.254.169.254", open) ?? "", /link-local.*never allowed/);
    assert.equal(addressRefusal("93.184.215.14", closed), undefined);
    assert.match(addressRefusal("::7f00:1", { allowPrivate: true, variable: "WEBHOOK_ALLOW_PRIVATE" }) ?? "", /never allowed/);
    assert.match(addressRefusal("2002:7f00:1::", { allowPrivate: false, variable: "WEBHOOK_ALLOW_PRIVATE" }) ?? "", /WEBHOOK_ALLOW_PRIVATE=true/);
  });

  it("refuses URLs by scheme, credentials, literal address and resolved name", async () => {
    const closed = { allowPrivate: false, variable: "X_ALLOW_PRIVATE" };
    assert.equal(urlRefusal("ftp://example.com/"), "The url must be an absolute http or https URL.");
    assert.equal(urlRefusal("https://u:p@example.com/"), "The url may not contain a user name or password.");
    assert.equal(urlRefusal("not a url"), "The url must be an absolute http or https URL.");
    assert.equal(await targetRefusal("https://93.184.215.14/", closed), undefined);
    assert.match((await targetRefusal("http://[::1]:8443/", closed)) ?? "", /::1 is a private or loopback address/);
    // The URL parser turns other spellings of an IPv4 address into the dotted one first.
    assert.match((await targetRefusal("http://0x7f.1:8443/", closed)) ?? "", /127\.0\.0\.1 is a private/);
    assert.match((await targetRefusal("http://localhost:6379/", closed)) ?? "", /is a private or loopback address/);
    assert.equal(await targetRefusal("http://localhost:6379/", { ...closed, allowPrivate: true }), undefined);
    assert.match((await targetRefusal("http://[::ffff:169.254.169.254]/", { ...closed, allowPrivate: true })) ?? "", /never allowed/);
    assert.match((await targetRefusal("http://no-such-host.invalid/", closed)) ?? "", /does not resolve/);
    assert.equal(literalRefusal(new URL("http://[::1]/"), closed), "::1 is a private or loopback address (allowed only with X_ALLOW_PRIVATE=true)");
    assert.equal(literalRefusal(new URL("http://localhost/"), closed), undefined, "names are left to the lookup");
  });

  describe("at connect time", () => {
    let server: Server;
    let port: number;
    let connections = 0;
    before(async () => {
      server = createServer((_req, res) => res.end("ok"));
      server.on("connection", () => connections++);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    function get(allowPrivate: boolean): Promise<{ status?: number; code?: string }> {
      return new Promise((resolve) => {
        const req = request(
          { host: "localhost", port, family: 4, agent: false, lookup: guardedLookup({ allowPrivate, variable: "X_ALLOW_PRIVATE" }) as never },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode }));
          },
        );
        req.on("error", (err: Error & { code?: string }) => resolve({ code: err.code }));
        req.end();
      });
    }

    it("refuses a name that resolves to loopback before any connection, and lets it through when private addresses are allowed", async () => {
      assert.deepEqual(await get(false), { code: "EADDRFORBIDDEN" });
      assert.deepEqual(await get(true), { status: 200 });
      assert.equal(connections, 1, "only the allowed request connected");
    });
  });
});
