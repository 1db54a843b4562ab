/**
 * The grant policy (src/gateways/grant-policy.ts): one answer for what a guest gets at a location,
 * read by RADIUS, controllers, openNDS, the RFC 8908 API, CoA and the console.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DEFAULT_CONTENT_FILTER_DNS,
  DEFAULT_GRANT_SECONDS,
  type GrantOptions,
  grantFor,
  grantSettings,
  hostList,
  hostOf,
  loginUrlsOf,
} from "../../src/gateways/grant-policy.js";

const OFF: GrantOptions = {
  session_time_limit: 0,
  max_bandwidth_up: 0,
  max_bandwidth_down: 0,
  daily_bandwidth_cap: 0,
  content_filter: 0,
  dns_server_1: "",
  dns_server_2: "",
  whitelist: "",
  blacklist: "",
};
const settings = { interimInterval: 300 };

describe("grant policy", () => {
  it("grants nothing limited when every option is off, and a day to gateways that need a duration", () => {
    const g = grantFor({ options: OFF, settings });
    assert.equal(g.sessionSeconds, 0);
    assert.equal(g.grantSeconds, DEFAULT_GRANT_SECONDS);
    assert.equal(g.idleSeconds, 0);
    assert.equal(g.upBytesPerSecond, 0);
    assert.equal(g.downBytesPerSecond, 0);
    assert.equal(g.remainingBytes, undefined);
    assert.equal(g.spent, false);
    assert.equal(g.interimInterval, 300);
    assert.deepEqual(g.dns, []);
    assert.equal(g.filter, false);
    assert.deepEqual(g.walledGarden, []);
    assert.deepEqual(g.blocked, []);
  });

  it("takes the location's session time, rates and what is left of today's cap", () => {
    const options = { ...OFF, session_time_limit: 3600, max_bandwidth_up: 125_000, max_bandwidth_down: 250_000, daily_bandwidth_cap: 1_000_000 };
    const g = grantFor({ options, usedToday: 400_000, settings });
    assert.equal(g.sessionSeconds, 3600);
    assert.equal(g.grantSeconds, 3600);
    assert.equal(g.upBytesPerSecond, 125_000);
    assert.equal(g.downBytesPerSecond, 250_000);
    assert.equal(g.dailyCap, 1_000_000);
    assert.equal(g.remainingBytes, 600_000);
    assert.equal(g.spent, false);
    assert.equal(grantFor({ options, settings }).remainingBytes, 1_000_000, "usage not looked up: the whole cap");
    const spent = grantFor({ options, usedToday: 1_000_000, settings });
    assert.equal(spent.spent, true);
    assert.equal(spent.remainingBytes, 0);
    assert.equal(grantFor({ options, usedToday: 2_000_000, settings }).remainingBytes, 0, "never negative");
  });

  // Moved from test/portal/portal-vouchers.test.ts (controller grants took the same answer).
  it("turns a voucher's limits into the grant, the location's where the voucher sets none", () => {
    const options = { ...OFF, session_time_limit: 7200, max_bandwidth_up: 500_000, max_bandwidth_down: 400_000, daily_bandwidth_cap: 900_000_000 };
    const pick = (g: ReturnType<typeof grantFor>) => ({ seconds: g.grantSeconds, up: g.upBytesPerSecond, down: g.downBytesPerSecond, bytes: g.remainingBytes });
    assert.deepEqual(pick(grantFor({ options, settings })), { seconds: 7200, up: 500_000, down: 400_000, bytes: 900_000_000 });
    const voucher = { voucherId: 1, secondsLeft: 1200, bandwidthUp: 125_000, bandwidthDown: 0, bytesLeft: 5_000_000 };
    assert.deepEqual(pick(grantFor({ options, voucher, settings })), { seconds: 1200, up: 125_000, down: 400_000, bytes: 5_000_000 });
    assert.deepEqual(pick(grantFor({ options, voucher: { ...voucher, bytesLeft: undefined }, settings })), { seconds: 1200, up: 125_000, down: 400_000, bytes: 900_000_000 });
    assert.equal(grantFor({ options, voucher: { ...voucher, bytesLeft: 0 }, settings }).spent, true, "a voucher's data used up");
    assert.equal(grantFor({ options: OFF, voucher, settings }).sessionSeconds, 1200, "a voucher's time is a session limit even where the location has none");
  });

  it("gives the location's DNS servers, or the filtering resolvers when the content filter is on", () => {
    const dns = { ...OFF, dns_server_1: "9.9.9.9", dns_server_2: "2620:fe::fe" };
    assert.deepEqual(grantFor({ options: dns, settings }).dns, ["9.9.9.9", "2620:fe::fe"]);
    assert.deepEqual(grantFor({ options: { ...OFF, dns_server_2: "8.8.8.8" }, settings }).dns, ["8.8.8.8"]);
    const filtered = grantFor({ options: { ...dns, content_filter: 1 }, settings });
    assert.equal(filtered.filter, true);
    assert.deepEqual(filtered.dns, [...DEFAULT_CONTENT_FILTER_DNS]);
    assert.deepEqual(grantFor({ options: { ...dns, content_filter: 1 }, settings: { ...settings, contentFilterDns: ["185.228.168.168"] } }).dns, ["185.228.168.168"]);
  });

  it("puts the portal's host, the login methods' hosts and the whitelist in the walled garden, the blacklist in blocked", () => {
    const options = { ...OFF, whitelist: "example.org, https://Menu.Example.com/today ,*.cdn.example.net;bad host!,example.org", blacklist: "ads.example\nTRACKER.example.com" };
    const g = grantFor({ options, settings: { ...settings, publicUrl: "https://wifi.example.com:8443/", loginUrls: ["https://www.facebook.com/v19.0/dialog/oauth"] } });
    assert.deepEqual(g.walledGarden, ["wifi.example.com", "www.facebook.com", "example.org", "menu.example.com", "*.cdn.example.net"]);
    assert.deepEqual(g.blocked, ["ads.example", "tracker.example.com"]);
  });

  it("reads host lists defensively", () => {
    assert.equal(hostOf("  "), undefined);
    assert.equal(hostOf("-bad.example"), undefined);
    assert.equal(hostOf("a".repeat(64) + ".example"), undefined);
    assert.equal(hostOf("example.com."), "example.com");
    assert.equal(hostOf("http://[::1]/"), undefined);
    assert.deepEqual(hostList(""), []);
  });

  it("adds the OAuth hosts only of methods the campaign offers and the service has configured", () => {
    const provider = { clientId: "x", clientSecret: "y", authorizeUrl: "https://www.facebook.com/v19.0/dialog/oauth", tokenUrl: "", userinfoUrl: "", scope: "" };
    const urls = loginUrlsOf({ facebook: provider }, { facebook: true, linkedin: true, sms: true });
    assert.ok(urls.includes("https://www.facebook.com/v19.0/dialog/oauth"));
    assert.equal(urls.some((u) => u.includes("linkedin")), false, "LinkedIn is not configured here");
    assert.deepEqual(loginUrlsOf({ facebook: provider }, { facebook: false }), []);
    const s = grantSettings({ publicUrl: "http://portal.example", contentFilterDns: undefined, radius: { interimInterval: 120 } }, urls);
    assert.equal(s.interimInterval, 120);
    assert.ok(grantFor({ options: OFF, settings: s }).walledGarden.includes("static.xx.fbcdn.net"));
  });
});
