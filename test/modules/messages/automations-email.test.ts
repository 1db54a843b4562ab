/**
 * Guest automations by e-mail, end to end against a real SMTP server (aiosmtpd) and real RADIUS
 * accounting (radclient): the welcome after a first login with an opt-in, nothing without one;
 * the one-click unsubscribe of RFC 8058 (form and multipart), honoured at once, recorded like a
 * consent change, in the export and the webhooks, withdrawing what was queued; visit-ended with its
 * survey after a session's Stop, the answer on the guest's record; caps, delays and languages;
 * erasure removing the messages and answers.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ParsedMail } from "mailparser";
import { createMessageSender } from "../../../src/modules/messages/message-worker.js";
import { issueCredential } from "../../../src/radius/portal-credentials.js";
import { DIALECTS } from "../../helpers/db.js";
import { loginGuest, mailEnv, messagesOf } from "../../helpers/mail.js";
import { type SmtpServer, startSmtpServer } from "../../helpers/smtp-server.js";
import { radclient } from "../../radius/radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeLocation, randomMac } from "../../radius/radius-fixtures.js";

const quiet = { warn() {}, info() {} };
const PUBLIC = "https://wifi.example.com";

/** A header as it came, unfolded (mailparser reads List-* headers into objects of its own). */
function header(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((h) => h.key === name)?.line ?? "";
  return line.slice(line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim();
}

for (const dialect of DIALECTS) {
  describe(`guest automations by e-mail (${dialect})`, () => {
    let smtp: SmtpServer;
    let t: RadiusEnv;
    let locationId: number;
    let sender: ReturnType<typeof createMessageSender>;
    /**
     * Sends what is due until the SMTP server holds `total` messages: again after an attempt that
     * failed (a slow SMTP answer on a loaded machine is retried after the backoff, and only a pass
     * sends it), for at most 60 s.
     */
    const deliver = async (total: number) => {
      const end = Date.now() + 60_000;
      for (;;) {
        await sender.pass();
        const got = await smtp.received();
        if (got.length >= total) return got;
        if (Date.now() > end) assert.fail(`only ${got.length} of ${total} messages arrived in 60 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    before(async () => {
      smtp = await startSmtpServer();
      t = await createRadiusEnv(dialect, {}, mailEnv(smtp, { PUBLIC_URL: PUBLIC }));
      locationId = await makeLocation(t);
      sender = createMessageSender(t.deps, t.config, quiet);
    });
    after(async () => {
      sender.close();
      await t.close();
      await smtp.stop();
    });

    it("checks what an automation is made of", async () => {
      const bad = await t.call("POST", "create-or-update-automation", { body: "Hi {{nickname}}", translations: "{nope", survey: "1", trigger: "welcome", channel: "sms" });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body.message.body[0], /unknown fields \(\{\{nickname\}\}\)/);
      assert.match(bad.body.message.translations[0], /JSON object/);
      assert.match(bad.body.message.survey[0], /visit-ended/);
      assert.match(bad.body.message.channel[0], /TWILIO_/);
      const missing = await t.call("POST", "create-or-update-automation", {});
      assert.deepEqual(Object.keys(missing.body.message).sort(), ["channel", "trigger"]);
      const other = await t.newAccount();
      const theirs = await t.call("POST", "create-or-update-location", { location_name: "Theirs", address1: "1", town: "x", state: "x", zipcode: "1", country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago" }, { identifier: other.identifier });
      const foreign = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "email", location_ids: String(theirs.body.location_id) });
      assert.deepEqual(foreign.body.message, { location_ids: ["The selected location_ids is invalid."] });
      assert.equal((await t.call("GET", "automation-list")).body.data.length, 0, "nothing written");
    });

    it("welcomes a guest who opted in, after the first login at the location only; nobody else", async () => {
      const a = await t.call("POST", "create-or-update-automation", {
        trigger: "welcome",
        channel: "email",
        location_ids: String(locationId),
        subject: "Welcome, {{first_name|friend}}!",
        body: "Hello {{first_name}} at {{location_name}}.\n\nSee https://example.com/menu",
        translations: JSON.stringify({ fr: { subject: "Bienvenue {{first_name}}", body: "Bonjour {{first_name}}." } }),
      });
      assert.equal(a.statusCode, 200, JSON.stringify(a.body));
      assert.equal(a.body.data.delay_minutes, 0);
      const before = (await messagesOf(t)).length;
      const ada = await loginGuest(t, locationId, { optIn: true, email: "ada@example.org", name: "Ada Lovelace" });
      await loginGuest(t, locationId, { optIn: true, email: "ada@example.org" });
      await loginGuest(t, locationId, { optIn: false, email: "bob@example.org" });
      const marie = await loginGuest(t, locationId, { optIn: true, email: "marie@example.org", name: "Marie Curie", locale: "fr_FR" });
      const queued = (await messagesOf(t, { automation_id: a.body.automation_id })).slice(before);
      assert.deepEqual(
        queued.map((m) => [m.user_id, m.status]),
        [
          [ada, "pending"],
          [marie, "pending"],
        ],
      );
      const mails = await deliver(2);
      const byTo = new Map(mails.map((m) => [m.mail.to && !Array.isArray(m.mail.to) ? m.mail.to.value[0].address : "", m]));
      const toAda = byTo.get("ada@example.org")!;
      assert.equal(toAda.mail.subject, "Welcome, Ada!");
      assert.match(toAda.mail.text ?? "", /Hello Ada at /);
      assert.match(toAda.mail.html || "", /<a href="https:\/\/example\.com\/menu">https:\/\/example\.com\/menu<\/a>/, "links as written, not rewritten");
      assert.doesNotMatch(toAda.mail.html || "", /<img/i, "no tracking pixel");
      const unsubscribe = /^<(https:\/\/wifi\.example\.com\/unsubscribe\/[A-Za-z0-9._-]+)>$/.exec(header(toAda.mail, "list-unsubscribe"));
      assert.ok(unsubscribe, header(toAda.mail, "list-unsubscribe"));
      assert.equal(header(toAda.mail, "list-unsubscribe-post"), "List-Unsubscribe=One-Click");
      assert.ok((toAda.mail.html || "").includes(`href="${unsubscribe[1]}"`), "the same link is visible in the message");
      assert.equal(byTo.get("marie@example.org")!.mail.subject, "Bienvenue Marie");
      const sent = await messagesOf(t, { user_id: marie });
      assert.equal(sent.at(-1).status, "sent");
      assert.equal(sent.at(-1).language, "fr");
      assert.equal(sent.at(-1).attempt_log[0].status_code, 250);
    });

    it("unsubscribes in one click: consent withdrawn at once, recorded, exported, announced, queued messages withdrawn", async () => {
      const hook = await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/consent", events: "guest.consent" });
      assert.equal(hook.statusCode, 200, JSON.stringify(hook.body));
      const now = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "email", name: "Now" });
      const later = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "email", delay_minutes: 600, name: "Later" });
      const base = (await smtp.received()).length;
      const other = await makeLocation(t);
      const guest = await loginGuest(t, other, { optIn: true, email: "click@example.org" });
      const mine = await messagesOf(t, { user_id: guest });
      assert.equal(mine.length, 2, "welcomed at once and queued for later");
      const [mail] = (await deliver(base + 1)).slice(base);
      const url = /<([^>]+)>/.exec(header(mail.mail, "list-unsubscribe"))![1];
      const path = new URL(url).pathname;

      const look = await t.app.inject({ method: "GET", url: path });
      assert.equal(look.statusCode, 200);
      assert.match(look.body, /<form method="post"/);
      assert.equal((await t.call("GET", "get-social-user-profile", { user_ids: guest })).body.data[0].marketing_opt_in, 1, "looking changes nothing");

      const boundary = "----x";
      const click = await t.app.inject({
        method: "POST",
        url: path,
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      });
      assert.equal(click.statusCode, 200, click.body);
      assert.equal(click.headers.location, undefined, "no redirect (RFC 8058)");
      const profile = (await t.call("GET", "get-social-user-profile", { user_ids: guest })).body.data[0];
      assert.equal(profile.marketing_opt_in, 0);
      const exported = (await t.call("GET", "export-social-user", { user_id: guest })).body.data;
      assert.deepEqual(
        exported.consent_changes.map((c: any) => [c.marketing_opt_in, c.source]),
        [[0, "one-click"]],
      );
      assert.equal(exported.messages.length, 2);
      const delivery = await t.db.selectFrom("webhook_deliveries").select("payload").where("webhook_id", "=", hook.body.webhook_id).execute();
      assert.equal(delivery.length, 1);
      assert.deepEqual(JSON.parse(delivery[0].payload).data, { ...JSON.parse(delivery[0].payload).data, guest_id: guest, marketing_opt_in: false, source: "one-click" });
      const after = await messagesOf(t, { user_id: guest });
      assert.deepEqual(
        after.map((m) => m.status),
        ["sent", "cancelled"],
      );

      // A form post works the same; a second unsubscribe records nothing more.
      const again = await t.app.inject({ method: "POST", url: path, payload: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
      assert.equal(again.statusCode, 200);
      assert.equal((await t.call("GET", "export-social-user", { user_id: guest })).body.data.consent_changes.length, 1);
      // A new location's first login queues nothing: no consent.
      await loginGuest(t, await makeLocation(t), { optIn: false, email: "click@example.org" });
      assert.equal((await messagesOf(t, { user_id: guest })).length, 2);
      for (const x of [now, later]) assert.equal((await t.call("POST", "delete-automation", { automation_id: x.body.automation_id })).statusCode, 200);
    });

    it("refuses a forged or altered unsubscribe link", async () => {
      for (const token of ["u1.AAAAAAAAAAAAAAAAAAAAAA", "u999999.abc", "nonsense"]) {
        const r = await t.app.inject({ method: "POST", url: `/unsubscribe/${token}`, payload: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
        assert.equal(r.statusCode, 404, token);
      }
    });

    it("sends visit-ended with a survey after the session's Stop; the answer lands on the guest's record", async () => {
      const loc = await makeLocation(t);
      const ap = await makeDevice(t, loc);
      const a = await t.call("POST", "create-or-update-automation", {
        trigger: "visit-ended",
        channel: "email",
        location_ids: String(loc),
        delay_minutes: 0,
        survey: "1",
        review_url: "https://reviews.example.com/corner-cafe",
      });
      assert.equal(a.statusCode, 200, JSON.stringify(a.body));
      const client = randomMac();
      const guest = await loginGuest(t, loc, { optIn: true, email: "visitor@example.org", clientMac: client });
      const cred = await issueCredential(t.deps, { guestId: guest, locationId: loc, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
      const session = [`User-Name = "${cred.username}"`, `Acct-Session-Id = "ve-${guest}"`, `Calling-Station-Id = "${dashed(client)}"`, `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`];
      const acct = (lines: string[]) => radclient(t.radius.acctPort, "acct", ap.secret, [...lines, ...session]);
      assert.equal((await acct(["Acct-Status-Type = Start"])).code, "Accounting-Response");
      assert.equal((await messagesOf(t, { automation_id: a.body.automation_id })).length, 0, "nothing before the end");
      const stop = ["Acct-Status-Type = Stop", "Acct-Session-Time = 600", "Acct-Terminate-Cause = User-Request"];
      assert.equal((await acct(stop)).code, "Accounting-Response");
      assert.equal((await acct([...stop, "Acct-Delay-Time = 3"])).code, "Accounting-Response", "a repeated Stop");
      assert.equal((await messagesOf(t, { automation_id: a.body.automation_id })).length, 1, "one message per session");
      const base = (await smtp.received()).length;
      const [mail] = (await deliver(base + 1)).slice(base);
      const text = mail.mail.text ?? "";
      assert.match(text, /How likely are you to recommend/);
      assert.match(mail.mail.html || "", /reviews\.example\.com\/corner-cafe/);
      const link = /(https:\/\/wifi\.example\.com\/survey\/[A-Za-z0-9._-]+)\?score=9/.exec(text);
      assert.ok(link, text);
      const path = new URL(link[1]).pathname;
      const page = await t.app.inject({ method: "GET", url: `${path}?score=9` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /value="9" checked/);
      assert.equal((await t.call("GET", "survey-answer-list", { user_id: guest })).body.total, 0, "opening the link records nothing");
      const sent = await t.app.inject({ method: "POST", url: path, payload: "score=9&comment=Great+coffee", headers: { "content-type": "application/x-www-form-urlencoded" } });
      assert.equal(sent.statusCode, 200);
      assert.match(sent.body, /reviews\.example\.com\/corner-cafe/);
      const answers = await t.call("GET", "survey-answer-list", { user_id: guest });
      assert.deepEqual(
        answers.body.data.map((x: any) => [x.score, x.comment, x.location_id]),
        [[9, "Great coffee", loc]],
      );
      const today = new Date().toISOString().slice(0, 10);
      const scores = await t.call("GET", "survey-scores", { location_id: loc, from_date: "2026-01-01", to_date: today > "2026-12-31" ? today : "2026-12-31" });
      assert.equal(scores.statusCode, 200, JSON.stringify(scores.body));
      assert.deepEqual(scores.body.totals, { answers: 1, average: 9, nps: 100 });
      const exported = (await t.call("GET", "export-social-user", { user_id: guest })).body.data;
      assert.equal(exported.survey_answers.length, 1);

      // The guest is back before a delayed visit-ended goes: it is skipped as "visit continued".
      await t.call("POST", "create-or-update-automation", { automation_id: a.body.automation_id, delay_minutes: 0, cap_messages: 5 });
      const again = [`User-Name = "${cred.username}"`, `Acct-Session-Id = "ve2-${guest}"`, `Calling-Station-Id = "${dashed(client)}"`, `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`];
      await radclient(t.radius.acctPort, "acct", ap.secret, ["Acct-Status-Type = Start", ...again]);
      await radclient(t.radius.acctPort, "acct", ap.secret, ["Acct-Status-Type = Stop", ...again]);
      await radclient(t.radius.acctPort, "acct", ap.secret, ["Acct-Status-Type = Start", ...again.map((l) => l.replace(`ve2-${guest}`, `ve3-${guest}`))]);
      await sender.pass();
      const last = (await messagesOf(t, { automation_id: a.body.automation_id })).at(-1);
      assert.equal(last.status, "skipped");
      assert.equal(last.last_error, "visit continued");

      // Erasure deletes the messages and answers with the guest.
      assert.equal((await t.call("POST", "erase-social-user", { user_id: guest })).statusCode, 200);
      assert.equal((await t.db.selectFrom("messages").select("id").where("guest_id", "=", guest).execute()).length, 0);
      assert.equal((await t.db.selectFrom("survey_answers").select("id").where("guest_id", "=", guest).execute()).length, 0);
      assert.equal((await t.app.inject({ method: "GET", url: path })).statusCode, 404, "the survey link names nothing any more");
    });

    it("caps messages per guest and period, and waits for the delay", async () => {
      const loc = await makeLocation(t);
      const a = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "email", location_ids: String(loc), delay_minutes: 30 });
      const g = await loginGuest(t, loc, { optIn: true, email: "patient@example.org" });
      const [m] = await messagesOf(t, { automation_id: a.body.automation_id });
      assert.equal(m.user_id, g);
      assert.ok(Date.parse(m.next_attempt_at) - Date.parse(m.created_at) >= 30 * 60_000, "due after the delay");
      await sender.pass();
      assert.equal((await messagesOf(t, { automation_id: a.body.automation_id }))[0].status, "pending", "not sent before it is due");
      await t.call("POST", "create-or-update-automation", { automation_id: a.body.automation_id, active: "0" });
      assert.equal((await messagesOf(t, { automation_id: a.body.automation_id }))[0].status, "cancelled", "pausing withdraws what was queued");

      const two = [await makeLocation(t), await makeLocation(t)];
      const capped = await t.call("POST", "create-or-update-automation", { trigger: "welcome", channel: "email", location_ids: two.join(","), cap_messages: 1, cap_days: 7 });
      const busy = await loginGuest(t, two[0], { optIn: true, email: "busy@example.org" });
      await loginGuest(t, two[1], { optIn: true, email: "busy@example.org" });
      while ((await sender.pass()) > 0);
      const outcomes = (await messagesOf(t, { automation_id: capped.body.automation_id })).map((m) => [m.user_id, m.status, m.last_error]);
      assert.deepEqual(outcomes, [
        [busy, "sent", ""],
        [busy, "skipped", "cap reached"],
      ]);
    });
  });
}
