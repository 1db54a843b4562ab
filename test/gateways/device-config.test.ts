/**
 * GET /api/get-device-config and the gateway's own scheduled fetch: the generated files parsed
 * (structure and values, per family), refused for other accounts' devices and read-only
 * sub-users, and the RADIUS values in them (host, ports, secret) accepted by the RADIUS server
 * through radclient.
 */
import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { after, before, describe, it } from "node:test";
import { configKey, isLoopbackUrl } from "../../src/gateways/device-config.js";
import { DIALECTS } from "../helpers/db.js";
import { makeSubUser } from "../helpers/sub-users.js";
import { radclient } from "../radius/radclient.js";
import { type RadiusEnv, createRadiusEnv, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "../radius/radius-fixtures.js";
import { countsOf, radclientCounted } from "../radius/radius-counts.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";

/** Two free UDP ports on loopback (bound, then released) for RADIUS authentication and accounting. */
async function freePorts(): Promise<[number, number]> {
  const socks = [createSocket("udp4"), createSocket("udp4")];
  const ports = await Promise.all(socks.map((s) => new Promise<number>((resolve) => s.bind(0, "127.0.0.1", () => resolve(s.address().port)))));
  await Promise.all(socks.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return [ports[0], ports[1]];
}

/** `name=value` pairs of one RouterOS command line (values quoted or bare). */
function rosArgs(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of line.matchAll(/([a-z-]+)=("(?:[^"\\]|\\.)*"|\S+)/g)) out[m[1]] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, "$1") : m[2];
  return out;
}

/** The `uci batch` lines, as [command, key, value]. */
function uciLines(content: string): [string, string, string][] {
  return content
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => {
      const m = /^(\S+) ([^=\s]+)(?:=(.*))?$/.exec(l);
      assert.ok(m, `a uci batch line: ${l}`);
      return [m[1], m[2], (m[3] ?? "").replace(/^'(.*)'$/, "$1")];
    });
}

const OPTIONS = {
  session_time_limit: "3600",
  max_bandwidth_up: "125000",
  max_bandwidth: "250000",
  dns_server_1: "9.9.9.9",
  dns_server_2: "149.112.112.112",
  whitelist: "menu.example.org, *.cdn.example.net",
  blacklist: "ads.example.com",
};

for (const dialect of DIALECTS) {
  describe(`get-device-config (${dialect})`, () => {
    let t: RadiusEnv;
    let authPort: number;
    let acctPort: number;

    before(async () => {
      [authPort, acctPort] = await freePorts();
      const ports = { RADIUS_AUTH_PORT: String(authPort), RADIUS_ACCT_PORT: String(acctPort) };
      t = await createRadiusEnv(dialect, ports, { ...ports, PUBLIC_URL: "http://127.0.0.1:3000" });
    });
    after(() => t.close());

    async function device(model: string, options: Record<string, string> = OPTIONS) {
      const locationId = await makeLocation(t);
      const set = await t.call("POST", "set-session-and-bandwidth-info", { location_id: locationId, ...options });
      assert.equal(set.statusCode, 200, JSON.stringify(set.body));
      return { locationId, ...(await makeDevice(t, locationId, t.accountId, model)) };
    }

    it("writes a RouterOS script whose RADIUS client, secret and ports the RADIUS server accepts", async () => {
      const d = await device("mikrotik-hap-ac2");
      const res = await t.call("GET", "get-device-config", { device_id: d.id });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const file = res.body.data;
      assert.equal(file.family, "mikrotik");
      assert.equal(file.filename, "guestwifi.rsc");
      const lines: string[] = file.content.split("\n");
      const radius = rosArgs(lines.find((l) => l.startsWith("/radius add "))!);
      assert.deepEqual(
        { service: radius.service, address: radius.address, secret: radius.secret, auth: radius["authentication-port"], acct: radius["accounting-port"] },
        { service: "hotspot", address: "127.0.0.1", secret: d.secret, auth: String(authPort), acct: String(acctPort) },
      );
      assert.equal(rosArgs(lines.find((l) => l.startsWith("/system identity set"))!).name, d.mac, "NAS-Identifier is the registered MAC");
      const garden = lines.filter((l) => l.startsWith("/ip hotspot walled-garden add")).map((l) => rosArgs(l)["dst-host"]);
      assert.deepEqual(garden, ["127.0.0.1", "menu.example.org", "*.cdn.example.net"], "the portal's host and the whitelist");
      const nat = lines.filter((l) => l.startsWith("/ip firewall nat add")).map(rosArgs);
      assert.deepEqual(nat.map((n) => [n.hotspot, n.protocol, n["dst-port"], n["to-addresses"]]), [["auth", "udp", "53", "9.9.9.9"], ["auth", "tcp", "53", "9.9.9.9"]]);
      assert.deepEqual(lines.filter((l) => l.startsWith("/ip firewall address-list add")).map((l) => rosArgs(l).address), ["ads.example.com"]);
      const fetch = rosArgs(lines.find((l) => l.startsWith("/tool fetch"))!);
      assert.equal(fetch.url, `http://127.0.0.1:3000/gateway/config/${d.id}/${configKey(d.secret, d.id)}/login.html`);
      assert.match(lines.find((l) => l.startsWith("/system scheduler add"))!, /interval=15m/);
      assert.match(file.warnings.join(" "), /PUBLIC_URL is http:\/\/127\.0\.0\.1:3000, a localhost or loopback address/);

      // The values in the file are the ones RADIUS accepts: an answer with its secret and port, none with another.
      const request = papRequest(d.mac, randomMac(), "nobody", "nothing");
      assert.equal((await radclient(Number(radius["authentication-port"]), "auth", radius.secret, request)).code, "Access-Reject", "answered: the secret is right");
      const other = await radclientCounted(countsOf(t.radiusMetrics), Number(radius["authentication-port"]), "auth", `${radius.secret}x`, request);
      assert.deepEqual([other.code, other.counted], [undefined, { drop: 1, error: 0, other: 0 }], "another secret is dropped (as the server counts it, not waited out)");
    });

    it("content filter on: RADIUS puts a MikroTik guest in the address list whose DNS rules the script writes", async () => {
      const d = await device("mikrotik-hap-ac2", { ...OPTIONS, content_filter: "1" });
      const file = (await t.call("GET", "get-device-config", { device_id: d.id })).body.data;
      const lines: string[] = file.content.split("\n");
      const nat = lines.filter((l) => l.startsWith("/ip firewall nat add")).map(rosArgs);
      assert.deepEqual(
        nat.map((n) => [n["src-address-list"], n.hotspot, n.protocol, n["dst-port"], n["to-addresses"]]),
        [["guestwifi-filtered", undefined, "udp", "53", "1.1.1.3"], ["guestwifi-filtered", undefined, "tcp", "53", "1.1.1.3"]],
        "the filtered guests' DNS goes to the filtering resolver",
      );
      const dot = lines.filter((l) => l.startsWith("/ip firewall filter add") && l.includes("dst-port=853")).map(rosArgs);
      assert.deepEqual(dot.map((f) => [f["src-address-list"], f.action]), [["guestwifi-filtered", "reject"]], "DNS over TLS refused to them");

      // A guest's Access-Accept from this router names the same list.
      const radius = rosArgs(lines.find((l) => l.startsWith("/radius add "))!);
      const client = randomMac();
      const guestId = await makeGuest(t, d.locationId, client);
      const cred = await issueCredential(t.deps, { guestId, locationId: d.locationId, deviceId: d.id, clientMac: client, ttlSeconds: 60 });
      const accept = await radclient(Number(radius["authentication-port"]), "auth", radius.secret, [
        `User-Name = "${cred.username}"`,
        `User-Password = "${cred.password}"`,
        `NAS-Identifier = "${d.mac}"`,
        `Calling-Station-Id = "${client}"`,
        "Message-Authenticator = 0x00",
      ]);
      assert.equal(accept.code, "Access-Accept", accept.output);
      assert.equal(accept.attributes["Mikrotik-Address-List"], nat[0]["src-address-list"]);

      // Filter off: no role in the answer, and the location's own DNS for every guest.
      await t.call("POST", "set-session-and-bandwidth-info", { location_id: d.locationId, ...OPTIONS, content_filter: "0" });
      const off = (await t.call("GET", "get-device-config", { device_id: d.id })).body.data.content as string;
      assert.doesNotMatch(off, /guestwifi-filtered/);
    });

    it("writes openNDS's uci batch: FAS level 3 at the location's page, faskey, walled garden, blocklist and DNS", async () => {
      const d = await device("glinet-gl-mt3000", { ...OPTIONS, content_filter: "1" });
      const res = await t.call("GET", "get-device-config", { device_id: d.id });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const file = res.body.data;
      assert.equal(file.family, "openwrt");
      const lines = uciLines(file.content);
      const value = (key: string) => lines.find(([c, k]) => c === "set" && k === key)?.[2];
      const location = (await t.call("GET", "get-location", { location_ids: d.locationId })).body.data[0];
      assert.equal(value("opennds.setup.fasremotefqdn"), "127.0.0.1");
      assert.equal(value("opennds.setup.fasport"), "3000");
      assert.equal(value("opennds.setup.faspath"), `${new URL(location.url).pathname}/authmon`);
      assert.equal(value("opennds.setup.fas_secure_enabled"), "3");
      assert.equal(value("opennds.setup.faskey"), d.secret);
      assert.deepEqual(
        lines.filter(([c, k]) => c === "add_list" && k === "opennds.setup.walledgarden_fqdn_list").map(([, , v]) => v),
        ["127.0.0.1 menu.example.org cdn.example.net"],
      );
      assert.deepEqual(lines.filter(([c, k]) => c === "add_list" && k === "opennds.setup.blocklist_fqdn_list").map(([, , v]) => v), ["ads.example.com"]);
      // content_filter on: the filtering resolvers replace the location's DNS servers.
      assert.deepEqual(lines.filter(([c, k]) => c === "add_list" && k === "dhcp.@dnsmasq[0].server").map(([, , v]) => v), ["1.1.1.3", "1.0.0.3"]);
      assert.deepEqual(lines.slice(-2).map(([c, k]) => `${c} ${k}`), ["commit opennds", "commit dhcp"]);
      // The portal answers at the faspath's page (GET without a redirect: the location's page).
      assert.equal((await t.app.inject({ method: "GET", url: new URL(location.url).pathname })).statusCode, 200);
    });

    it("writes CoovaChilli's config with the RADIUS values, the walled garden and the DNS servers", async () => {
      const d = await device("coovachilli");
      const file = (await t.call("GET", "get-device-config", { device_id: d.id })).body.data;
      assert.equal(file.family, "coova");
      const vars = Object.fromEntries(
        file.content
          .split("\n")
          .map((l: string) => /^(HS_[A-Z0-9]+)=(.*)$/.exec(l))
          .filter(Boolean)
          .map((m: RegExpExecArray) => [m[1], m[2].replace(/^'(.*)'$/, "$1")]),
      );
      assert.equal(vars.HS_RADIUS, "127.0.0.1");
      assert.equal(vars.HS_RADSECRET, d.secret);
      assert.equal(vars.HS_RADAUTH, String(authPort));
      assert.equal(vars.HS_RADACCT, String(acctPort));
      assert.equal(vars.HS_NASID, d.mac);
      assert.equal(vars.HS_UAMALLOW, "127.0.0.1,menu.example.org");
      assert.equal(vars.HS_UAMDOMAINS, "cdn.example.net");
      assert.deepEqual([vars.HS_DNS1, vars.HS_DNS2], ["9.9.9.9", "149.112.112.112"]);
      assert.match(file.not_carried.join(" "), /blacklist/);
    });

    it("gives controller and cloud families the values and steps for their screens", async () => {
      for (const [model, family, words] of [
        ["ubiquiti-u6-lite", "unifi", /Pre-Authorization Allowances: 127\.0\.0\.1, menu\.example\.org/],
        ["tplink-eap225", "omada", /Pre-Authentication Access/],
        ["meraki-mr36", "meraki", /Walled garden ranges: 127\.0\.0\.1/],
        ["aruba-ap-505", "aruba", /Walled Garden > Blacklist\]\nDomains: ads\.example\.com/],
        ["ruckus-r550", "ruckus", /Walled Garden: 127\.0\.0\.1/],
        ["cambium-xv2-2", "cambium", /Whitelist: 127\.0\.0\.1/],
      ] as const) {
        const d = await device(model);
        const file = (await t.call("GET", "get-device-config", { device_id: d.id })).body.data;
        assert.equal(file.family, family);
        assert.match(file.content, words, family);
        assert.ok(file.steps.length > 0, `${family}: steps`);
      }
    });

    it("refuses another account's device, an unassigned one and read-only sub-users like any other id", async () => {
      const other = await t.newAccount();
      const theirs = await makeDevice(t, null, other.accountId, "mikrotik-hap-ac2");
      const refused = await t.call("GET", "get-device-config", { device_id: theirs.id });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.body.message, { device_id: ["The selected device_id is invalid."] });
      const unassigned = await makeDevice(t, null, t.accountId, "mikrotik-hap-ac2");
      assert.deepEqual((await t.call("GET", "get-device-config", { device_id: unassigned.id })).body.message, {
        device_id: ["The selected device is not assigned to a location."],
      });
      const d = await device("mikrotik-hap-ac2");
      const reader = await makeSubUser(t, { readonly: true });
      assert.equal((await t.call("GET", "get-device-config", { device_id: d.id }, { identifier: reader.identifier })).statusCode, 400);
      const writer = await makeSubUser(t, { readonly: false });
      assert.equal((await t.call("GET", "get-device-config", { device_id: d.id }, { identifier: writer.identifier })).statusCode, 200);
    });

    it("serves a gateway its own configuration with the key derived from its secret, and records the fetch", async () => {
      const d = await device("mikrotik-cap-ax");
      const base = `/gateway/config/${d.id}/${configKey(d.secret, d.id)}`;
      const before = (await t.call("GET", "get-device", { device_ids: d.id })).body.data[0];
      assert.equal(before.last_upgraded, "");
      const res = await t.app.inject({ method: "GET", url: `${base}/config` });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, new RegExp(`secret="${d.secret}"`));
      const after = (await t.call("GET", "get-device", { device_ids: d.id })).body.data[0];
      assert.match(after.last_upgraded, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      const listed = (await t.call("GET", "get-location-devices", { location_id: d.locationId })).body.devices[0];
      assert.match(listed.sync_response, /^fetched guestwifi\.rsc sha256:[0-9a-f]{16}$/);
      const login = await t.app.inject({ method: "GET", url: `${base}/login.html` });
      assert.equal(login.statusCode, 200);
      assert.match(login.body, /link-login-only/);
      // A wrong key, another device's key and a rotated secret are refused alike.
      for (const url of [`/gateway/config/${d.id}/${"0".repeat(32)}/config`, `/gateway/config/${d.id + 1}/${configKey(d.secret, d.id)}/config`, `${base}/other`]) {
        assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 404, url);
      }
      await t.call("POST", "rotate-device-secret", { device_id: d.id });
      assert.equal((await t.app.inject({ method: "GET", url: `${base}/config` })).statusCode, 404, "the old key stops with the old secret");
    });
  });
}

describe("loopback PUBLIC_URL", () => {
  it("tells loopback and localhost from addresses gateways can reach", () => {
    for (const u of ["http://localhost:3000", "http://127.0.0.1", "http://[::1]:8080/", "http://wifi.localhost"]) assert.equal(isLoopbackUrl(u), true, u);
    for (const u of ["https://wifi.example.com", "http://192.168.1.10:3000", "http://10.0.0.1"]) assert.equal(isLoopbackUrl(u), false, u);
  });
});

describe("configuration values", () => {
  it("quotes RouterOS and uci values so that a secret or a name cannot end them", async () => {
    const { rosString } = await import("../../src/gateways/mikrotik/mikrotik.config.js");
    const { uciValue } = await import("../../src/gateways/opennds/opennds.config.js");
    assert.equal(rosString('a"b$c\\d'), '"a\\"b\\$c\\\\d"');
    assert.equal(rosString("a\nb"), '"a b"');
    assert.equal(uciValue("it's"), "'it'\\''s'");
    assert.equal(uciValue("a\nb"), "'a b'");
  });
});
