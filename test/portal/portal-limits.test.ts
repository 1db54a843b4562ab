/**
 * Portal rate limits a caller cannot dodge: per client address whatever MAC the (unsigned) gateway
 * redirect names, per SMS destination number, per location; each app with counters of its own.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, type World, countLogins, makeWorld, merakiUrl, stateOf } from "./portal-world.js";
import { type TwilioStandIn, startTwilioStandIn } from "./stand-ins.js";

const SECRET = "portal-secret-for-tests";
const GRANT = "https://n9.network-auth.com/splash/grant";
const SMS_ONLY = { login_options: JSON.stringify({ sms: 1 }) };

const mac = (i: number) => `02:cc:00:00:${((i >> 8) & 0xff).toString(16).padStart(2, "0")}:${(i & 0xff).toString(16).padStart(2, "0")}`;

/** A guest's browser at `ip`, on the page its gateway sent it to naming client MAC `clientMac`. */
async function openPage(t: TestApp, w: World, ip: string, clientMac: string) {
  const client = new PortalClient(t.app, undefined, ip);
  const page = await client.get(merakiUrl(w.path, { grant: GRANT, node: w.apMac, client: clientMac }));
  assert.equal(page.statusCode, 200, page.body);
  return { client, state: stateOf(page.body) };
}

function twilioEnv(twilio: TwilioStandIn): Record<string, string> {
  return {
    PORTAL_SECRET: SECRET,
    TWILIO_API_BASE_URL: twilio.url,
    TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
    TWILIO_AUTH_TOKEN: "twilio-token",
    TWILIO_FROM: "+15005550006",
  };
}

for (const dialect of DIALECTS) {
  describe(`portal rate limits (${dialect})`, () => {
    let twilio: TwilioStandIn;
    const apps: TestApp[] = [];
    const app = async (env: Record<string, string>) => {
      const t = await createTestApp(dialect, { ...twilioEnv(twilio), ...env });
      apps.push(t);
      return t;
    };
    before(async () => {
      twilio = await startTwilioStandIn();
    });
    after(async () => {
      for (const t of apps) await t.close();
      await twilio.close();
    });
    const sentTo = (prefix: string) => twilio.requests.filter((r) => (r.form.get("To") ?? "").startsWith(prefix)).length;

    it("limits login attempts per client address, however many MACs the redirects name", async () => {
      const t = await app({ PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "5" });
      const w = await makeWorld(t);
      const answers: number[] = [];
      for (let i = 0; i < 10; i++) {
        const { client, state } = await openPage(t, w, "203.0.113.7", mac(i));
        const res = await client.post("/portal/login/email", { state, email: `guest${i}@example.com` });
        answers.push(res.statusCode);
        if (res.statusCode === 429) {
          const wait = Number(res.headers["retry-after"]);
          assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
          assert.match(String(res.headers["content-type"]), /^text\/html/);
          assert.match(res.body, /Too many login attempts from this network\. Please try again in \d+ seconds\./);
        }
      }
      assert.deepEqual(answers, [303, 303, 303, 303, 303, 429, 429, 429, 429, 429]);
      assert.equal((await countLogins(t, w.locationId)).length, 5);
      const { client, state } = await openPage(t, w, "198.51.100.20", mac(99));
      assert.equal((await client.post("/portal/login/email", { state, email: "other@example.com" })).statusCode, 303, "another address");
    });

    it("counts an IPv6 client by its /64: a host cannot step around the limit inside its own network", async () => {
      const t = await app({ PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "2" });
      const w = await makeWorld(t);
      const post = async (ip: string, i: number) => {
        const { client, state } = await openPage(t, w, ip, mac(i));
        return (await client.post("/portal/login/email", { state, email: `v6-${i}@example.com` })).statusCode;
      };
      assert.equal(await post("2001:db8:1:2::1", 1), 303);
      assert.equal(await post("2001:db8:1:2:aaaa::7", 2), 303);
      assert.equal(await post("2001:db8:1:2:ffff:1:2:3", 3), 429, "same /64");
      assert.equal(await post("2001:db8:1:3::1", 4), 303, "another /64");
    });

    it("sends a limited number of texts from one address, however many MACs and numbers it names", async () => {
      // Defaults only: what a deployment gets without tuning anything.
      const t = await app({});
      const w = await makeWorld(t, SMS_ONLY);
      const answers = new Map<number, number>();
      for (let i = 0; i < 60; i++) {
        const { client, state } = await openPage(t, w, "203.0.113.60", mac(i));
        const res = await client.post("/portal/login/sms", { state, phone: `+44770090${String(1000 + i).slice(1)}` });
        answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode === 429) {
          assert.ok(Number(res.headers["retry-after"]) >= 1);
          assert.match(res.body, /Too many text messages were requested from this network/);
        }
      }
      assert.equal(sentTo("+44770090"), t.config.portalSmsRateLimitPerMinute, "texts actually sent");
      assert.equal(answers.get(200), t.config.portalSmsRateLimitPerMinute);
      assert.equal(answers.get(429), 60 - t.config.portalSmsRateLimitPerMinute);
    });

    it("limits texts per location whatever the address, and leaves other locations alone", async () => {
      const t = await app({ PORTAL_SMS_RATE_LIMIT_PER_MINUTE: "3" });
      const w = await makeWorld(t, SMS_ONLY);
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const { client, state } = await openPage(t, w, `198.51.100.${i + 1}`, mac(i));
        codes.push((await client.post("/portal/login/sms", { state, phone: `+4477009011${i}0` })).statusCode);
      }
      assert.deepEqual(codes, [200, 200, 200, 429, 429]);
      assert.equal(sentTo("+4477009011"), 3);
      const other = await makeWorld(t, SMS_ONLY);
      const { client, state } = await openPage(t, other, "198.51.100.9", mac(9));
      assert.equal((await client.post("/portal/login/sms", { state, phone: "+447700901199" })).statusCode, 200);
    });

    it("limits texts per destination number across addresses and locations, per window and per day", async () => {
      const t = await app({ PORTAL_SMS_RATE_LIMIT_PER_MINUTE: "1000" });
      const number = "+447700902000";
      const send = async (i: number) => {
        const w = await makeWorld(t, SMS_ONLY);
        const { client, state } = await openPage(t, w, `192.0.2.${i + 1}`, mac(i));
        return client.post("/portal/login/sms", { state, phone: number });
      };
      for (let i = 0; i < 3; i++) assert.equal((await send(i)).statusCode, 200);
      const capped = await send(3);
      assert.equal(capped.statusCode, 429);
      assert.match(capped.body, /Several codes were already sent to this number/);
      // Age the codes out of the window, but not out of the day: the daily cap still counts them.
      const ageCodes = () =>
        t.db
          .updateTable("sms_codes")
          .set({ created_at: new Date(Date.now() - 3600_000).toISOString().slice(0, 19).replace("T", " ") })
          .where("phone_number", "=", number)
          .execute();
      let i = 10;
      for (const more of [3, 3, 1]) {
        await ageCodes();
        for (let n = 0; n < more; n++) assert.equal((await send(i++)).statusCode, 200);
      }
      await ageCodes();
      const daily = await send(30);
      assert.equal(daily.statusCode, 429);
      assert.match(daily.body, /already sent to this number today/);
      assert.equal(sentTo(number), 10);
    });

    it("behind a reverse proxy (TRUST_PROXY=<its address>) counts the address the proxy saw, not what the client wrote", async () => {
      const t = await app({ PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "10.0.0.2" });
      const w = await makeWorld(t);
      const post = async (forwardedFor: string, i: number, peer = "10.0.0.2") => {
        const page = await t.app.inject({
          method: "GET",
          url: merakiUrl(w.path, { grant: GRANT, node: w.apMac, client: mac(i) }),
          remoteAddress: peer,
          headers: { accept: "text/html", "x-forwarded-for": forwardedFor },
        });
        const cookie = String(page.headers["set-cookie"]).split(";")[0];
        const res = await t.app.inject({
          method: "POST",
          url: "/portal/login/email",
          remoteAddress: peer,
          headers: { accept: "text/html", cookie, "x-forwarded-for": forwardedFor, "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams({ state: stateOf(page.body), email: `proxied-${i}@example.com` }).toString(),
        });
        return res.statusCode;
      };
      // The proxy appends the address it saw; anything before it is the client's own invention.
      assert.equal(await post("1.1.1.1, 203.0.113.50", 1), 303);
      assert.equal(await post("2.2.2.2, 203.0.113.50", 2), 303);
      assert.equal(await post("3.3.3.3, 203.0.113.50", 3), 429);
      assert.equal(await post("203.0.113.51", 4), 303, "another client of the proxy");
      // A peer that is not the proxy cannot name a client at all.
      assert.equal(await post("4.4.4.4", 5, "198.51.100.77"), 303);
      assert.equal(await post("5.5.5.5", 6, "198.51.100.77"), 303);
      assert.equal(await post("6.6.6.6", 7, "198.51.100.77"), 429);
    });

    it("keeps each app's counters its own: two apps in one process share no limiter", async () => {
      const a = await app({ PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1" });
      const b = await app({ PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1" });
      const wa = await makeWorld(a);
      const wb = await makeWorld(b);
      const login = async (t: TestApp, w: World, i: number) => {
        const { client, state } = await openPage(t, w, "203.0.113.99", mac(i));
        return (await client.post("/portal/login/email", { state, email: `two-apps-${i}@example.com` })).statusCode;
      };
      assert.equal(await login(a, wa, 1), 303);
      assert.equal(await login(a, wa, 2), 429);
      assert.equal(await login(b, wb, 3), 303, "app b counts on its own");
    });
  });
}
