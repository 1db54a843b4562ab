/**
 * The console's server side on SQLite and PostgreSQL: sign-in and its sessions, the API through the
 * session cookie (CSRF, read-only, isolation), identifier rotation, the overview's numbers against
 * get-social-logins and get-visits, and the guest search.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createAccount, setOwnerPassword } from "../../src/modules/accounts/accounts.service.js";
import { purgeExpiredSessions } from "../../src/modules/console/console.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";

const PASSWORD = "a long owner password";
let n = 0;

interface Signed {
  cookie: string;
  csrf: string;
}

/** Each sign-in from its own address, so that the per-address limit counts only the test that tests it. */
async function signIn(t: TestApp, email: string, password: string, remoteAddress = `10.200.${++n % 250}.${Math.floor(n / 250) + 1}`, app = t.app): Promise<Signed> {
  const res = await app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password }, remoteAddress });
  assert.equal(res.statusCode, 200, res.body);
  const setCookie = String(res.headers["set-cookie"]);
  const cookie = setCookie.split(";")[0];
  return { cookie, csrf: res.json().user.csrf_token };
}

function api(t: TestApp, s: Signed, method: "GET" | "POST", path: string, params: Record<string, unknown> = {}, csrf = true, app = t.app) {
  const headers: Record<string, string> = { cookie: s.cookie };
  if (csrf) headers["x-csrf-token"] = s.csrf;
  return method === "GET"
    ? app.inject({ method, url: path, query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])), headers })
    : app.inject({ method, url: path, payload: params as Record<string, string>, headers });
}

for (const dialect of DIALECTS) {
  describe(`console API (${dialect})`, () => {
    let t: TestApp;
    let email: string;
    let accountId: number;
    let owner: Signed;
    before(async () => {
      t = await createTestApp(dialect);
      email = `console-owner-${dialect}-${Date.now()}@example.com`;
      accountId = (await createAccount(t.deps, email, PASSWORD)).accountId;
      owner = await signIn(t, email, PASSWORD);
    });
    after(async () => t.close());

    it("sets an HttpOnly, SameSite=Lax session cookie; Secure when the browser came over HTTPS", async () => {
      const res = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: PASSWORD } });
      const cookie = String(res.headers["set-cookie"]);
      assert.match(cookie, /^gw_console=[A-Za-z0-9_-]{40,};/);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.doesNotMatch(cookie, /; Secure/);

      const tls = await createTestApp(dialect, { TRUST_PROXY: "127.0.0.1" });
      try {
        const e = `tls-${dialect}-${Date.now()}@example.com`;
        await createAccount(tls.deps, e, PASSWORD);
        const r = await tls.app.inject({
          method: "POST",
          url: "/console/api/sign-in",
          payload: { email: e, password: PASSWORD },
          headers: { "x-forwarded-proto": "https" },
        });
        assert.equal(r.statusCode, 200);
        assert.match(String(r.headers["set-cookie"]), /; Secure/);
      } finally {
        await tls.close();
      }
    });

    it("answers an unknown e-mail and a wrong password alike, and stores no token in clear", async () => {
      const unknown = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: "nobody@example.com", password: PASSWORD }, remoteAddress: "10.9.0.1" });
      const wrong = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: "not the password" }, remoteAddress: "10.9.0.2" });
      assert.equal(unknown.statusCode, 401);
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(unknown.json(), wrong.json());
      assert.equal(unknown.headers["set-cookie"], undefined);
      const token = owner.cookie.split("=")[1];
      const rows = await t.db.selectFrom("console_sessions").select("id").execute();
      assert.ok(rows.length > 0);
      assert.ok(rows.every((r) => r.id !== token && /^[0-9a-f]{64}$/.test(r.id)));
    });

    it("limits sign-in attempts per address and per account", async () => {
      const target = `limited-${dialect}-${Date.now()}@example.com`;
      await createAccount(t.deps, target, PASSWORD);
      // Per account: ten wrong passwords from ten addresses, then even the right one waits (in a browser it never signed in from).
      for (let i = 0; i < 10; i++) {
        const r = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: target, password: "wrong password" }, remoteAddress: `10.1.${i}.1` });
        assert.equal(r.statusCode, 401);
      }
      const locked = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: target, password: PASSWORD }, remoteAddress: "10.1.99.1" });
      assert.equal(locked.statusCode, 429);
      assert.ok(Number(locked.headers["retry-after"]) > 0);
      // Per address: ten e-mails from one address, then the eleventh is refused.
      for (let i = 0; i < 10; i++) {
        const r = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: `x${i}@example.com`, password: "wrong password" }, remoteAddress: "10.2.0.1" });
        assert.equal(r.statusCode, 401);
      }
      const r = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: PASSWORD }, remoteAddress: "10.2.0.1" });
      assert.equal(r.statusCode, 429);
    });

    it("someone guessing an owner's password from many addresses never locks the owner out of a browser they signed in from", async () => {
      const target = `guarded-${dialect}-${Date.now()}@example.com`;
      const other = `other-${dialect}-${Date.now()}@example.com`;
      await createAccount(t.deps, target, PASSWORD);
      await createAccount(t.deps, other, PASSWORD);
      const knownCookie = (res: { headers: Record<string, unknown> }) => {
        const all = [res.headers["set-cookie"]].flat().map(String);
        const c = all.find((x) => x.startsWith("gw_console_known="));
        assert.ok(c, all.join(" | "));
        assert.match(c, /; HttpOnly/);
        assert.match(c, /; SameSite=Strict/);
        assert.match(c, /; Path=\/console\/api/);
        return c.split(";")[0];
      };
      const attempt = (who: string, password: string, remoteAddress: string, cookie?: string) =>
        t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: who, password }, remoteAddress, headers: cookie ? { cookie } : {} });

      // The owner signed in at home once (an e-mail in another case is the same mailbox); a colleague at another desk.
      const home = knownCookie(await attempt(target.toUpperCase(), PASSWORD, "10.3.0.1"));
      const desk = knownCookie(await attempt(other, PASSWORD, "10.3.0.2"));
      for (let i = 0; i < 12; i++) {
        const res = await attempt(target, "wrong password", `10.4.${i}.1`);
        assert.ok([401, 429].includes(res.statusCode), String(res.statusCode));
      }
      // A stranger, a browser that knows another e-mail, an altered cookie: slowed down.
      assert.equal((await attempt(target, PASSWORD, "10.5.0.1")).statusCode, 429);
      assert.equal((await attempt(target, PASSWORD, "10.5.0.2", desk)).statusCode, 429);
      const altered = `${home.slice(0, -2)}${home.endsWith("AA") ? "BB" : "AA"}`;
      assert.equal((await attempt(target, PASSWORD, "10.5.0.3", altered)).statusCode, 429);
      // The owner's own browser, even from a new address: in, and the cookie is renewed.
      const back = await attempt(target, PASSWORD, "10.5.0.4", home);
      assert.equal(back.statusCode, 200, back.body);
      const renewed = knownCookie(back);
      // The browser keeps knowing both e-mails that signed in there.
      const both = knownCookie(await attempt(other, PASSWORD, "10.5.0.5", renewed));
      assert.equal((await attempt(target, PASSWORD, "10.5.0.6", both)).statusCode, 200);
      // Wrong guesses from the owner's browser still count against its address.
      for (let i = 0; i < 10; i++) await attempt(target, "wrong password", "10.6.0.1", home);
      assert.equal((await attempt(target, PASSWORD, "10.6.0.1", home)).statusCode, 429);
    });

    it("refuses a sign-in another site's page sends: no session for an account of its choosing", async () => {
      const sessions = async () => (await t.db.selectFrom("console_sessions").select("id").execute()).length;
      const before = await sessions();
      const form = `email=${encodeURIComponent(email)}&password=${encodeURIComponent(PASSWORD)}`;
      for (const headers of [
        { origin: "https://evil.example" },
        { origin: "null" },
        { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
        { "sec-fetch-site": "same-site" },
      ]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/console/api/sign-in",
          payload: form,
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          remoteAddress: "10.7.0.1",
        });
        assert.equal(res.statusCode, 403, JSON.stringify(headers));
        assert.deepEqual(Object.keys(res.json().message), ["origin"]);
        assert.equal(res.headers["set-cookie"], undefined, JSON.stringify(headers));
      }
      assert.equal(await sessions(), before, "no session was made");
      // The console's own page (Chromium sends Sec-Fetch-Site), its Origin, and clients that are not browsers sign in.
      for (const headers of [{ "sec-fetch-site": "same-origin" }, { origin: "http://localhost" }, {}]) {
        const res = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: PASSWORD }, headers, remoteAddress: "10.7.0.2" });
        assert.equal(res.statusCode, 200, `${JSON.stringify(headers)}: ${res.body}`);
      }
    });

    it("console writes compare the CSRF token whole", async () => {
      const s = await signIn(t, email, PASSWORD);
      for (const csrf of ["", s.csrf.slice(0, -1), `${s.csrf}x`, `${s.csrf.slice(0, -1)}${s.csrf.endsWith("A") ? "B" : "A"}`]) {
        const res = await t.app.inject({ method: "POST", url: "/console/api/sign-out", headers: { cookie: s.cookie, "x-csrf-token": csrf } });
        assert.equal(res.statusCode, 403, csrf);
      }
      const out = await t.app.inject({ method: "POST", url: "/console/api/sign-out", headers: { cookie: s.cookie, "x-csrf-token": s.csrf } });
      assert.equal(out.statusCode, 200);
    });

    it("lets a session call the API; writes need the CSRF token", async () => {
      const list = await api(t, owner, "GET", "/api/location-list", {}, false);
      assert.equal(list.statusCode, 200, list.body);
      const noToken = await api(t, owner, "POST", "/api/create-or-update-location", locationParams({ location_name: "No token" }), false);
      assert.equal(noToken.statusCode, 403);
      const badToken = await api(t, { ...owner, csrf: "x".repeat(32) }, "POST", "/api/create-or-update-location", locationParams({ location_name: "Bad token" }));
      assert.equal(badToken.statusCode, 403);
      const names = (await t.db.selectFrom("locations").select("name").where("account_id", "=", accountId).execute()).map((r) => r.name);
      assert.ok(!names.includes("No token") && !names.includes("Bad token"));
      const created = await api(t, owner, "POST", "/api/create-or-update-location", locationParams({ location_name: "With token" }));
      assert.equal(created.statusCode, 200, created.body);
      const row = await t.db.selectFrom("locations").select("account_id").where("id", "=", created.json().location_id).executeTakeFirstOrThrow();
      assert.equal(row.account_id, accountId);
    });

    it("sees nothing of another account", async () => {
      const other = await createAccount(t.deps, `other-${dialect}-${Date.now()}@example.com`, PASSWORD);
      const theirs = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Theirs" }), { identifier: other.identifier });
      const id = theirs.body.location_id;
      const get = await api(t, owner, "GET", "/api/get-location", { location_ids: id });
      assert.equal(get.statusCode, 400);
      const list = await api(t, owner, "GET", "/api/location-list");
      assert.ok(!list.json().data.some((l: { id: number }) => l.id === id));
      const overview = await api(t, owner, "GET", "/console/api/overview", { location_id: id, from_date: "2026-01-01", to_date: "2026-01-07" });
      assert.equal(overview.statusCode, 400);
      const del = await api(t, owner, "POST", "/api/delete-location", { location_id: id });
      assert.equal(del.statusCode, 400);
      const still = await t.db.selectFrom("locations").select("deleted").where("id", "=", id).executeTakeFirstOrThrow();
      assert.equal(still.deleted, 0);
    });

    it("lets a read-only sub-user sign in and read, and refuses every write on the server", async () => {
      const loc = (await api(t, owner, "POST", "/api/create-or-update-location", locationParams())).json().location_id;
      const subEmail = `reader-${dialect}-${++n}-${Date.now()}@example.com`;
      const made = await api(t, owner, "POST", "/api/create-sub-user", subUserParams(loc, { email_address: subEmail, password: "reader-pass", readonly: "1" }));
      assert.equal(made.statusCode, 200, made.body);
      const reader = await signIn(t, subEmail, "reader-pass");
      const me = await api(t, reader, "GET", "/console/api/me");
      assert.equal(me.json().user.readonly, true);
      assert.equal(me.json().user.role, "sub-user");
      assert.equal((await api(t, reader, "GET", "/api/location-list")).statusCode, 200);
      const write = await api(t, reader, "POST", "/api/create-or-update-location", locationParams({ location_name: "Reader wrote" }));
      assert.equal(write.statusCode, 400);
      assert.deepEqual(write.json().message, { identifier: ["This identifier is read-only."] });
      // The API's access levels answer the console's own routes too.
      const rotate = await api(t, reader, "POST", "/console/api/rotate-identifier", { password: "reader-pass" });
      assert.equal(rotate.statusCode, 400);
      assert.deepEqual(rotate.json().message, { identifier: ["This identifier is read-only."] });
    });

    it("ends a session at sign-out on every instance sharing the database", async () => {
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false" });
      const b = await buildApp({ config, db: t.db, deps: createAppDeps(t.db), logger: false });
      await b.ready();
      try {
        const s = await signIn(t, email, PASSWORD);
        assert.equal((await api(t, s, "GET", "/console/api/me", {}, false, b)).statusCode, 200, "a session started on A works on B");
        const out = await api(t, s, "POST", "/console/api/sign-out", {}, true, b);
        assert.equal(out.statusCode, 200);
        assert.match(String(out.headers["set-cookie"]), /Max-Age=0/);
        assert.equal((await api(t, s, "GET", "/console/api/me")).statusCode, 401, "ended on A too");
        const call = await api(t, s, "GET", "/api/location-list");
        assert.equal(call.statusCode, 400);
      } finally {
        await b.close();
      }
    });

    it("refuses an expired session and housekeeping deletes it", async () => {
      const s = await signIn(t, email, PASSWORD);
      const id = createHash("sha256").update(s.cookie.split("=")[1]).digest("hex");
      await t.db.updateTable("console_sessions").set({ expires_at: "2020-01-01 00:00:00" }).where("id", "=", id).execute();
      const other = await signIn(t, email, PASSWORD);
      const otherId = createHash("sha256").update(other.cookie.split("=")[1]).digest("hex");
      await t.db.updateTable("console_sessions").set({ expires_at: "2020-01-01 00:00:00" }).where("id", "=", otherId).execute();
      assert.equal((await api(t, s, "GET", "/console/api/me")).statusCode, 401);
      assert.equal(await t.db.selectFrom("console_sessions").select("id").where("id", "=", id).executeTakeFirst(), undefined, "deleted when refused");
      assert.ok((await purgeExpiredSessions(t.deps)) >= 1);
      assert.equal(await t.db.selectFrom("console_sessions").select("id").where("id", "=", otherId).executeTakeFirst(), undefined);
      assert.equal((await api(t, owner, "GET", "/console/api/me")).statusCode, 200, "a live session stays");
    });

    it("ends the owner's sessions when the password is set again", async () => {
      const e = `reset-${dialect}-${Date.now()}@example.com`;
      await createAccount(t.deps, e, PASSWORD);
      const s = await signIn(t, e, PASSWORD);
      assert.equal((await api(t, s, "GET", "/console/api/me")).statusCode, 200);
      await setOwnerPassword(t.deps, e, "a brand new password");
      assert.equal((await api(t, s, "GET", "/console/api/me")).statusCode, 401);
      await signIn(t, e, "a brand new password");
    });

    it("rotates the owner's identifier after the password: the old one stops at once", async () => {
      const e = `rotate-${dialect}-${Date.now()}@example.com`;
      const acct = await createAccount(t.deps, e, PASSWORD);
      const s = await signIn(t, e, PASSWORD);
      assert.equal((await t.call("GET", "location-list", {}, { identifier: acct.identifier })).statusCode, 200);
      const wrong = await api(t, s, "POST", "/console/api/rotate-identifier", { password: "not it at all" });
      assert.equal(wrong.statusCode, 400);
      assert.equal((await t.call("GET", "location-list", {}, { identifier: acct.identifier })).statusCode, 200, "a wrong password changes nothing");
      const noCsrf = await api(t, s, "POST", "/console/api/rotate-identifier", { password: PASSWORD }, false);
      assert.equal(noCsrf.statusCode, 403);
      const r = await api(t, s, "POST", "/console/api/rotate-identifier", { password: PASSWORD });
      assert.equal(r.statusCode, 200, r.body);
      const fresh = r.json().identifier as string;
      assert.notEqual(fresh, acct.identifier);
      const old = await t.call("GET", "location-list", {}, { identifier: acct.identifier });
      assert.equal(old.statusCode, 400);
      assert.deepEqual(old.body.message, { identifier: ["The identifier is invalid."] });
      assert.equal((await t.call("GET", "location-list", {}, { identifier: fresh })).statusCode, 200);
    });

    it("gives the overview the numbers get-social-logins and get-visits give for the same days", async () => {
      const e = `overview-${dialect}-${Date.now()}@example.com`;
      const acct = await createAccount(t.deps, e, PASSWORD);
      const s = await signIn(t, e, PASSWORD);
      const zones = ["Pacific/Auckland", "America/Los_Angeles"];
      const locs: { id: number; timezone: string }[] = [];
      for (const tz of zones) {
        const r = await t.call("POST", "create-or-update-location", locationParams({ timezone: tz }), { identifier: acct.identifier });
        locs.push({ id: r.body.location_id, timezone: tz });
      }
      const campaign = await t.db.selectFrom("campaigns").select("id").where("account_id", "is", null).executeTakeFirstOrThrow();
      const types = ["Cuser", "Muser", "FWuser"] as const;
      const start = Date.UTC(2026, 5, 1, 0, 0, 0);
      for (let i = 0; i < 120; i++) {
        const loc = locs[i % 2];
        await recordLogin(t.deps.db, {
          accountId: acct.accountId,
          locationId: loc.id,
          timezone: loc.timezone,
          campaignId: campaign.id,
          deviceId: null,
          loginType: types[i % 3],
          identity: `guest${i % 37}@example.com`,
          profile: { email: `guest${i % 37}@example.com` },
          clientMac: "",
          userAgent: "test",
          // Spread over ten days at hours that cross midnight in both zones.
          at: new Date(start + i * 2 * 3600_000 + (i % 5) * 600_000),
        });
      }
      const from = "2026-05-31";
      const to = "2026-06-12";
      for (const scope of [locs[0], locs[1], null]) {
        const ids = scope ? String(scope.id) : locs.map((l) => l.id).join(",");
        const ov = await api(t, s, "GET", "/console/api/overview", { location_id: scope ? scope.id : 0, from_date: from, to_date: to });
        assert.equal(ov.statusCode, 200, ov.body);
        const o = ov.json().data;
        const logins = await t.call("GET", "get-social-logins", { location_id: ids, from_date: from, to_date: to }, { identifier: acct.identifier });
        const visits = await t.call("GET", "get-visits", { location_id: ids, from_date: from, to_date: to }, { identifier: acct.identifier });
        assert.deepEqual(o.days, logins.body.categories);
        for (const series of logins.body.series as { name: string; data: number[] }[]) {
          assert.deepEqual(o.logins.find((x: { name: string }) => x.name === series.name).data, series.data, `${series.name} (${scope?.timezone ?? "all"})`);
        }
        assert.deepEqual(o.visits, visits.body.series[0].data);
        assert.equal(o.totals.logins, scope ? 60 : 120);
        assert.equal(o.hours.length, 168);
        assert.equal(o.hours.reduce((a: number, b: number) => a + b, 0), o.totals.logins, "every login in one hour of the week");
        // 37 distinct guests, each new once per location where they logged in.
        const firsts = await t.db
          .selectFrom("guest_locations")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("location_id", "in", scope ? [scope.id] : locs.map((l) => l.id))
          .executeTakeFirstOrThrow();
        assert.equal(o.totals.newGuests, Number(firsts.n));
        for (let d = 0; d < o.days.length; d++) assert.equal(o.newGuests[d] + o.returningGuests[d], o.visits[d]);
      }
    });

    it("searches the account's guests by name, e-mail, phone or MAC, newest first, in pages", async () => {
      const e = `guests-${dialect}-${Date.now()}@example.com`;
      const acct = await createAccount(t.deps, e, PASSWORD);
      const other = await createAccount(t.deps, `guests-other-${dialect}-${Date.now()}@example.com`);
      const s = await signIn(t, e, PASSWORD);
      const campaign = await t.db.selectFrom("campaigns").select("id").where("account_id", "is", null).executeTakeFirstOrThrow();
      const add = async (who: { accountId: number; identifier: string }, i: number, name: string, mac: string) => {
        const loc = await t.call("POST", "create-or-update-location", locationParams(), { identifier: who.identifier });
        await recordLogin(t.deps.db, {
          accountId: who.accountId,
          locationId: loc.body.location_id,
          timezone: "America/Chicago",
          campaignId: campaign.id,
          deviceId: null,
          loginType: "Cuser",
          identity: `${name.toLowerCase().replace(/ /g, ".")}${i}@example.com`,
          profile: { full_name: name, email: `${name.toLowerCase().replace(/ /g, ".")}${i}@example.com`, phone_number: `+1555000${String(i).padStart(4, "0")}` },
          clientMac: mac,
          userAgent: "test",
        });
      };
      for (let i = 0; i < 60; i++) await add(acct, i, i % 2 ? "Grace Hopper" : "Alan Turing", `02:00:00:00:${String(Math.floor(i / 10)).padStart(2, "0")}:${String(i % 10).padStart(2, "0")}`);
      await add(other, 1, "Grace Hopper", "02:AA:00:00:00:01");
      const search = async (q: string, before_id?: number) => {
        const r = await api(t, s, "GET", "/console/api/guests", before_id ? { q, before_id } : { q });
        assert.equal(r.statusCode, 200, r.body);
        return r.json() as { data: { id: number; full_name: string; email: string; macs: string[] }[]; next_before_id: number | null };
      };
      const page1 = await search("");
      assert.equal(page1.data.length, 50);
      assert.ok(page1.next_before_id !== null);
      const page2 = await search("", page1.next_before_id!);
      assert.equal(page2.data.length, 10);
      assert.equal(page2.next_before_id, null);
      const ids = [...page1.data, ...page2.data].map((g) => g.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
      assert.equal(new Set(ids).size, 60);

      assert.equal((await search("grace")).data.length, 30, "by part of the name, any case");
      assert.ok((await search("grace")).data.every((g) => g.full_name === "Grace Hopper"));
      assert.equal((await search("alan.turing10@")).data.length, 1, "by e-mail");
      assert.equal((await search("5550000059")).data.length, 1, "by phone");
      const byMac = await search("02-00-00-00-05-09");
      assert.equal(byMac.data.length, 1, "by MAC in any notation");
      assert.deepEqual(byMac.data[0].macs, ["02:00:00:00:05:09"]);
      assert.equal((await search("02:AA:00:00:00:01")).data.length, 0, "never another account's guest");
      assert.equal((await search("100%_")).data.length, 0, "LIKE wildcards are literal");

      assert.equal((await search("gr")).data.length, 30, "two letters: matched without the trigram index");

      // The search index follows changes and deletions of guests, whoever makes them.
      const renamed = byMac.data[0].id;
      await t.db.updateTable("guests").set({ full_name: "Katherine Johnson" }).where("id", "=", renamed).execute();
      assert.deepEqual((await search("katherine")).data.map((g) => g.id), [renamed]);
      // (its e-mail, grace.hopper59@, still has "grace" in it: search for the name as written)
      const graces = (await search("grace hopper")).data;
      assert.equal(graces.length, 29, "the old name no longer finds the renamed guest");
      assert.ok(!graces.some((g) => g.id === renamed));
      const gone = (await search("alan.turing10@")).data[0].id;
      await t.db.deleteFrom("guest_macs").where("guest_id", "=", gone).execute();
      await t.db.deleteFrom("guest_locations").where("guest_id", "=", gone).execute();
      await t.db.deleteFrom("daily_visitors").where("guest_id", "=", gone).execute();
      await t.db.deleteFrom("logins").where("guest_id", "=", gone).execute();
      await t.db.deleteFrom("guests").where("id", "=", gone).execute();
      assert.equal((await search("alan.turing10@")).data.length, 0);

      const profile = await api(t, s, "GET", "/console/api/guest", { id: byMac.data[0].id });
      assert.equal(profile.statusCode, 200);
      assert.equal(profile.json().data.logins.length, 1);
      const theirs = await t.db.selectFrom("guests").select("id").where("account_id", "=", other.accountId).executeTakeFirstOrThrow();
      const refused = await api(t, s, "GET", "/console/api/guest", { id: theirs.id });
      assert.deepEqual([refused.statusCode, refused.json().message], [400, { id: ["The selected id is invalid."] }]);
    });

    it("runs the console's own routes through the API's pipeline: session only, scope, ranges, audit", async () => {
      const e = `pipeline-${dialect}-${Date.now()}@example.com`;
      const acct = await createAccount(t.deps, e, PASSWORD);
      const s = await signIn(t, e, PASSWORD);
      const loc = async (name: string) => (await t.call("POST", "create-or-update-location", locationParams({ location_name: name }), { identifier: acct.identifier })).body.location_id as number;
      const inside = await loc("Inside");
      const outside = await loc("Outside");
      // An identifier is the API's; the console's own routes take the session cookie only.
      const byIdentifier = await t.app.inject({ method: "GET", url: "/console/api/me", headers: { identifier: acct.identifier } });
      assert.deepEqual([byIdentifier.statusCode, byIdentifier.json().message], [401, { session: ["Sign in to the console first."] }]);

      // A sub-user scoped to one location is refused the other exactly like another account's.
      const subEmail = `scoped-${dialect}-${++n}-${Date.now()}@example.com`;
      const made = await api(t, s, "POST", "/api/create-sub-user", subUserParams(inside, { email_address: subEmail, password: "scoped-pass-1", location_ids: String(inside) }));
      assert.equal(made.statusCode, 200, made.body);
      const sub = await signIn(t, subEmail, "scoped-pass-1");
      const range = { from_date: "2026-01-01", to_date: "2026-01-07" };
      assert.equal((await api(t, sub, "GET", "/console/api/overview", { location_id: inside, ...range })).statusCode, 200);
      for (const [path, params] of [
        ["/console/api/overview", { location_id: outside, ...range }],
        ["/console/api/location-radius", { location_id: outside }],
      ] as const) {
        const refused = await api(t, sub, "GET", path, params);
        assert.deepEqual([refused.statusCode, refused.json().message], [400, { location_id: ["The selected location_id is invalid."] }], path);
      }
      assert.equal((await api(t, sub, "GET", "/console/api/location-radius", { location_id: inside })).statusCode, 200);

      // The overview's range: every failing parameter at once, in the API's sentences.
      const longest = await api(t, s, "GET", "/console/api/overview", { location_id: 0, from_date: "2024-01-01", to_date: "2026-12-31" });
      assert.equal(longest.statusCode, 200, longest.body);
      assert.equal(longest.json().data.days.length, 1096);
      const tooLong = await api(t, s, "GET", "/console/api/overview", { location_id: 0, from_date: "2024-01-01", to_date: "2027-01-01" });
      assert.deepEqual([tooLong.statusCode, Object.keys(tooLong.json().message)], [400, ["to_date"]]);
      const bad = await api(t, s, "GET", "/console/api/overview", { location_id: "x", from_date: "2026-02-30" });
      assert.deepEqual(Object.keys(bad.json().message).sort(), ["from_date", "location_id", "to_date"]);

      // A console write is audited by the pipeline, without the password that confirmed it.
      assert.equal((await api(t, s, "POST", "/console/api/rotate-identifier", { password: PASSWORD })).statusCode, 200);
      const entry = await t.db.selectFrom("audit_log").selectAll().where("account_id", "=", acct.accountId).where("action", "=", "rotate-identifier").executeTakeFirstOrThrow();
      assert.deepEqual([entry.via, entry.actor_type, JSON.parse(entry.changes)], ["console", "owner", {}]);
    });

    it("serves the page shell with a strict CSP, and redirects / to /console", async () => {
      const root = await t.app.inject({ method: "GET", url: "/" });
      assert.equal(root.statusCode, 302);
      assert.equal(root.headers.location, "/console");
      const page = await t.app.inject({ method: "GET", url: "/console/locations/12" });
      assert.equal(page.statusCode, 200);
      const csp = String(page.headers["content-security-policy"]);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.doesNotMatch(page.body, /<script>(?!<\/script>)/, "no inline script");
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.body)![1];
      const js = await t.app.inject({ method: "GET", url: script, headers: { "accept-encoding": "gzip" } });
      assert.equal(js.statusCode, 200);
      assert.equal(js.headers["content-encoding"], "gzip");
      assert.ok(js.rawPayload.length < 200_000, `gzipped script ${js.rawPayload.length} bytes`);
      assert.equal((await t.app.inject({ method: "GET", url: "/console/api/nothing" })).statusCode, 404);
      assert.equal((await t.app.inject({ method: "GET", url: "/console/api/me" })).statusCode, 401);
    });
  });
}
