import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, countLogins, makeWorld, merakiUrl, stateOf } from "./portal-world.js";
import { type TwilioStandIn, startTwilioStandIn } from "./stand-ins.js";

const GRANT = "https://n7.network-auth.com/splash/grant";

for (const dialect of DIALECTS) {
  describe(`portal SMS login (${dialect})`, () => {
    let t: TestApp;
    let twilio: TwilioStandIn;
    before(async () => {
      twilio = await startTwilioStandIn();
      t = await createTestApp(dialect, {
        PORTAL_SECRET: "portal-secret-for-tests",
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
        PORTAL_SMS_RATE_LIMIT_PER_MINUTE: "1000",
        TWILIO_API_BASE_URL: twilio.url,
        TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
        TWILIO_AUTH_TOKEN: "twilio-token",
        TWILIO_FROM: "+15005550006",
        SMS_MAX_ATTEMPTS: "3",
      });
    });
    after(async () => {
      await t.close();
      await twilio.close();
    });

    async function askCode(phone: string) {
      const w = await makeWorld(t, { login_options: JSON.stringify({ sms: 1 }) });
      const client = new PortalClient(t.app);
      const page = await client.get(merakiUrl(w.path, { grant: GRANT, node: w.apMac, client: "02:bb:00:00:00:01" }));
      assert.match(page.body, /action="\/portal\/login\/sms"/);
      const sent = await client.post("/portal/login/sms", { state: stateOf(page.body), phone });
      return { w, client, sent };
    }

    it("texts a code through the Messages API and logs the guest in with it", async () => {
      const { w, client, sent } = await askCode("+44 7700 900123");
      assert.equal(sent.statusCode, 200, sent.body);
      assert.match(sent.body, /We sent a 6-digit code to <bdi dir="ltr">\+44•+23<\/bdi>\./);
      const req = twilio.requests.at(-1)!;
      assert.equal(req.method, "POST");
      assert.equal(req.path, "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json");
      assert.equal(req.headers.authorization, `Basic ${Buffer.from("AC0123456789abcdef0123456789abcdef:twilio-token").toString("base64")}`);
      assert.equal(req.headers["content-type"], "application/x-www-form-urlencoded");
      assert.equal(req.form.get("To"), "+447700900123");
      assert.equal(req.form.get("From"), "+15005550006");
      const code = twilio.lastCode("+447700900123");
      assert.match(req.form.get("Body")!, new RegExp(`^${code} is your WiFi code for Corner Cafe\\. It expires in 10 minutes\\.$`));
      const row = await t.db.selectFrom("sms_codes").selectAll().where("phone_number", "=", "+447700900123").executeTakeFirstOrThrow();
      assert.ok(!row.code_hash.includes(code), "only a keyed hash of the code is stored");
      assert.equal(row.location_id, w.locationId);
      const done = await client.post("/portal/login/sms/verify", { state: stateOf(sent.body), code });
      assert.equal(done.statusCode, 303, done.body);
      assert.match(done.location!, /^https:\/\/n7\.network-auth\.com\/splash\/grant\?/);
      const [login] = await countLogins(t, w.locationId);
      assert.equal(login.login_type, "Twilio");
      const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", login.guest_id).executeTakeFirstOrThrow();
      assert.equal(guest.network_user_id, "+447700900123");
      assert.equal(guest.phone_number, "+447700900123");
      const again = await client.post("/portal/login/sms/verify", { state: stateOf(sent.body), code });
      assert.equal(again.statusCode, 400, "a code works once");
      assert.match(again.body, /expired/);
    });

    it("allows smsMaxAttempts guesses per code, then wants a new one", async () => {
      const { client, sent, w } = await askCode("+447700900124");
      const state = stateOf(sent.body);
      const code = twilio.lastCode("+447700900124");
      const wrong = code === "000000" ? "111111" : "000000";
      const first = await client.post("/portal/login/sms/verify", { state, code: wrong });
      assert.equal(first.statusCode, 400);
      assert.match(first.body, /That code is not right\. 2 attempts left\./);
      await client.post("/portal/login/sms/verify", { state, code: "12ab" });
      const third = await client.post("/portal/login/sms/verify", { state, code: wrong });
      assert.match(third.body, /Too many wrong codes/);
      const late = await client.post("/portal/login/sms/verify", { state, code });
      assert.equal(late.statusCode, 400, "the right code after the last attempt is refused");
      assert.equal((await countLogins(t, w.locationId)).length, 0);
      const resent = await client.post("/portal/login/sms/resend", { state });
      assert.equal(resent.statusCode, 200);
      assert.match(resent.body, /We sent you a new code/);
      const fresh = twilio.lastCode("+447700900124");
      assert.equal((await client.post("/portal/login/sms/verify", { state: stateOf(resent.body), code: fresh })).statusCode, 303);
    });

    it("refuses expired codes", async () => {
      const { client, sent } = await askCode("+447700900125");
      await t.db.updateTable("sms_codes").set({ expires_at: "2000-01-01 00:00:00" }).where("phone_number", "=", "+447700900125").execute();
      const res = await client.post("/portal/login/sms/verify", { state: stateOf(sent.body), code: twilio.lastCode("+447700900125") });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /This code has expired/);
    });

    it("checks the number, caps codes per number, and reports a failed send without keeping its code", async () => {
      const bad = await askCode("12345");
      assert.equal(bad.sent.statusCode, 400);
      assert.match(bad.sent.body, /with its country code/);
      const { client, sent } = await askCode("+447700900126");
      const state = stateOf(sent.body);
      await client.post("/portal/login/sms/resend", { state });
      await client.post("/portal/login/sms/resend", { state });
      const capped = await client.post("/portal/login/sms/resend", { state });
      assert.equal(capped.statusCode, 429);
      assert.match(capped.body, /Several codes were already sent/);
      twilio.failNext(400);
      const failed = await askCode("+447700900127");
      assert.equal(failed.sent.statusCode, 502);
      assert.match(failed.sent.body, /could not send the text message/);
      const rows = await t.db.selectFrom("sms_codes").selectAll().where("phone_number", "=", "+447700900127").execute();
      assert.equal(rows.length, 0);
    });

    it("will not verify a code for a number the page state does not carry", async () => {
      const { client } = await askCode("+447700900128");
      const page = await client.get((await makeWorld(t, { login_options: JSON.stringify({ sms: 1 }) })).path);
      const res = await client.post("/portal/login/sms/verify", { state: stateOf(page.body), code: twilio.lastCode("+447700900128") });
      assert.equal(res.statusCode, 403);
    });
  });
}
