/**
 * Guest automations by text message through Twilio's Messages API (the local stand-in the SMS
 * login tests use, built from Twilio's documentation): the text with its STOP note; STOP received
 * on the incoming-message webhook (signed as Twilio signs) withdrawing the guest's consent and
 * keeping the number from texts; Twilio's 21610 refusal treated the same; a wrong signature refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMessageSender } from "../../../src/modules/messages/message-worker.js";
import { twilioSignature } from "../../../src/portal/sms/sms-inbound.routes.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { loginGuest, messagesOf } from "../../helpers/mail.js";
import { type TwilioStandIn, startTwilioStandIn } from "../../portal/stand-ins.js";
import { makeLocation } from "../../radius/radius-fixtures.js";

const quiet = { warn() {}, info() {} };
const TOKEN = "twilio-token";
const PUBLIC = "https://wifi.example.com";

for (const dialect of DIALECTS) {
  describe(`guest automations by text message (${dialect})`, () => {
    let twilio: TwilioStandIn;
    let t: TestApp;
    let sender: ReturnType<typeof createMessageSender>;
    let locationId: number;
    before(async () => {
      twilio = await startTwilioStandIn();
      t = await createTestApp(dialect, {
        PUBLIC_URL: PUBLIC,
        TWILIO_API_BASE_URL: twilio.url,
        TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: "+15005550006",
        MESSAGE_RETRY_BASE_MS: "50",
      });
      sender = createMessageSender(t.deps, t.config, quiet);
      locationId = await makeLocation(t);
    });
    after(async () => {
      sender.close();
      await t.close();
      await twilio.close();
    });

    const inbound = (form: Record<string, string>, signature = twilioSignature(TOKEN, `${PUBLIC}/sms/inbound`, form)) =>
      t.app.inject({
        method: "POST",
        url: "/sms/inbound",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
        payload: new URLSearchParams(form).toString(),
      });

    it("texts the welcome with the STOP note; STOP withdraws the consent and the number; START lets it be texted again", async () => {
      const a = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "sms", body: "Welcome {{first_name}}! 10% off today.", cap_messages: 10 });
      assert.equal(a.statusCode, 200, JSON.stringify(a.body));
      const phone = "+447700900123";
      const g = await loginGuest(t, locationId, { optIn: true, phone, name: "Grace Hopper" });
      await sender.pass();
      const texted = twilio.requests.filter((r) => r.form.get("To") === phone);
      assert.equal(texted.length, 1);
      assert.equal(texted[0].form.get("Body"), "Welcome Grace! 10% off today.\nReply STOP to opt out.");
      assert.equal((await messagesOf(t, { user_id: g }))[0].status, "sent");

      assert.equal((await inbound({ From: phone, To: "+15005550006", Body: "STOP" }, "forged")).statusCode, 403);
      assert.equal((await t.call("GET", "get-social-user-profile", { user_ids: g })).body.data[0].marketing_opt_in, 1, "a forged STOP changes nothing");
      const stop = await inbound({ From: phone, To: "+15005550006", Body: " stop ", MessageSid: "SM1" });
      assert.equal(stop.statusCode, 200);
      assert.match(stop.body, /<Response><\/Response>/);
      assert.equal((await t.call("GET", "get-social-user-profile", { user_ids: g })).body.data[0].marketing_opt_in, 0);
      const changes = (await t.call("GET", "export-social-user", { user_id: g })).body.data.consent_changes;
      assert.deepEqual(
        changes.map((c: any) => c.source),
        ["sms-stop"],
      );

      // Opted in again at a login, the number that said STOP still gets no marketing text.
      await loginGuest(t, await makeLocation(t), { optIn: true, phone });
      await sender.pass();
      const last = (await messagesOf(t, { user_id: g })).at(-1);
      assert.deepEqual([last.status, last.last_error], ["skipped", "the number replied STOP"]);
      assert.equal(twilio.requests.filter((r) => r.form.get("To") === phone).length, 1);

      assert.equal((await inbound({ From: phone, To: "+15005550006", Body: "START" })).statusCode, 200);
      await loginGuest(t, await makeLocation(t), { optIn: true, phone });
      await sender.pass();
      assert.equal((await messagesOf(t, { user_id: g })).at(-1).status, "sent");
      await t.call("POST", "delete-automation", { automation_id: a.body.automation_id });
    });

    it("takes Twilio's 21610 (the number said STOP to Twilio) as a STOP, and does not retry it", async () => {
      const a = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "sms" });
      const phone = "+447700900999";
      const g = await loginGuest(t, await makeLocation(t), { optIn: true, phone });
      twilio.failNext(400, 21610);
      await sender.pass();
      const [m] = await messagesOf(t, { user_id: g });
      assert.equal(m.status, "failed");
      assert.equal(m.attempt_log.length, 1);
      assert.equal((await t.call("GET", "get-social-user-profile", { user_ids: g })).body.data[0].marketing_opt_in, 0);
      await t.call("POST", "delete-automation", { automation_id: a.body.automation_id });
    });

    it("skips guests without a mobile number in E.164 form", async () => {
      const a = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "sms" });
      const g = await loginGuest(t, await makeLocation(t), { optIn: true, email: "nophone@example.org" });
      await sender.pass();
      const [m] = await messagesOf(t, { user_id: g });
      assert.deepEqual([m.status, m.last_error], ["skipped", "no mobile number"]);
      await t.call("POST", "delete-automation", { automation_id: a.body.automation_id });
    });
  });
}
