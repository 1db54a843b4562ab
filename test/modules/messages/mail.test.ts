/**
 * Outgoing e-mail against a real SMTP server (aiosmtpd) that the test starts: a test e-mail through
 * the API reaches it; STARTTLS with a login, and smtps, against a private CA; DKIM signatures that
 * an independent verifier (dkimpy) accepts; temporary refusals retried with backoff and logged,
 * a final refusal failed at once; the rate per minute counted across instances.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { OutboxLoop } from "../../../src/db/outbox.js";
import { createMessageSender, startMessageWorker } from "../../../src/modules/messages/message-worker.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { mailEnv, settled } from "../../helpers/mail.js";
import { type SmtpServer, dkimKeyPair, dkimVerifies, startSmtpServer } from "../../helpers/smtp-server.js";

const quiet = { debug() {}, warn() {}, info() {}, error() {} };

for (const dialect of DIALECTS) {
  describe(`outgoing e-mail (${dialect})`, () => {
    const cleanup: (() => Promise<void>)[] = [];
    after(async () => {
      for (const c of cleanup.reverse()) await c();
    });

    async function world(smtpOpts: Parameters<typeof startSmtpServer>[0], env: (s: SmtpServer) => Record<string, string>) {
      const smtp = await startSmtpServer(smtpOpts);
      cleanup.push(() => smtp.stop());
      const t = await createTestApp(dialect, env(smtp));
      cleanup.push(() => t.close());
      const worker: OutboxLoop = startMessageWorker(t.deps, t.config, quiet);
      cleanup.push(() => worker.stop());
      return { smtp, t };
    }

    it("sends a test e-mail through the API, with the sender, subject and the server's answer logged", async () => {
      const { smtp, t } = await world({}, (s) => mailEnv(s));
      const r = await t.call("POST", "send-test-email", { to: "owner@example.net" });
      assert.equal(r.statusCode, 200, JSON.stringify(r.body));
      const m = await settled(t, r.body.message_id);
      assert.equal(m.status, "sent", JSON.stringify(m));
      assert.equal(m.attempt_log.length, 1);
      assert.equal(m.attempt_log[0].status_code, 250);
      const [got] = await smtp.waitFor(1);
      assert.equal(got.mail.from?.value[0].address, "wifi@example.com");
      assert.equal(got.mail.to && !Array.isArray(got.mail.to) ? got.mail.to.value[0].address : "", "owner@example.net");
      assert.match(got.mail.subject ?? "", /Test e-mail/);
      assert.match(got.mail.messageId ?? "", /@example\.com>$/);
    });

    it("logs in over STARTTLS, and over smtps, checking the server against SMTP_CA_FILE", async () => {
      for (const smtps of [false, true]) {
        const auth = { user: "mailer", pass: "s3cret p@ss" };
        const { smtp, t } = await world({ tls: true, smtps, auth }, (s) =>
          mailEnv(s, {
            SMTP_URL: `${smtps ? "smtps" : "smtp"}://mailer:${encodeURIComponent(auth.pass)}@127.0.0.1:${s.port}`,
            SMTP_CA_FILE: s.caFile!,
          }),
        );
        const r = await t.call("POST", "send-test-email", { to: "tls@example.net" });
        const m = await settled(t, r.body.message_id);
        assert.equal(m.status, "sent", `${smtps ? "smtps" : "starttls"}: ${JSON.stringify(m)}`);
        await smtp.waitFor(1);
      }
    });

    it("does not send the password to a server that offers no STARTTLS: retried, never in clear", async () => {
      const { smtp, t } = await world({}, (s) => mailEnv(s, { SMTP_URL: `smtp://mailer:pw@127.0.0.1:${s.port}`, MESSAGE_RETRY_FOR_MS: "300" }));
      const r = await t.call("POST", "send-test-email", { to: "x@example.net" });
      const m = await settled(t, r.body.message_id);
      assert.equal(m.status, "failed");
      assert.match(m.attempt_log[0].error, /STARTTLS|TLS/i);
      assert.equal((await smtp.received()).length, 0);
    });

    it("signs with DKIM when a key is configured, as dkimpy verifies", async () => {
      const dir = mkdtempSync(join(tmpdir(), "guestwifi-dkim-key-"));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      const { keyFile, txt } = dkimKeyPair(dir);
      const { smtp, t } = await world({}, (s) => mailEnv(s, { MAIL_DKIM_DOMAIN: "example.com", MAIL_DKIM_SELECTOR: "wifi", MAIL_DKIM_PRIVATE_KEY_FILE: keyFile }));
      const r = await t.call("POST", "send-test-email", { to: "dkim@example.net" });
      assert.equal((await settled(t, r.body.message_id)).status, "sent");
      const [got] = await smtp.waitFor(1);
      assert.match(got.raw, /^DKIM-Signature: [\s\S]*?\bd=example\.com;[\s\S]*?\bs=wifi;/m);
      assert.ok(dkimVerifies(got.raw, txt), "dkimpy verifies the signature");
      assert.ok(!dkimVerifies(got.raw.replace("Test e-mail", "Test e-mai1"), txt), "and refuses an altered message");
    });

    it("retries a temporary refusal with backoff, logging every attempt, and fails a final refusal at once", async () => {
      const { smtp, t } = await world({ failFirst: 2, reject: ["gone@example.net"] }, (s) => mailEnv(s));
      const r = await t.call("POST", "send-test-email", { to: "later@example.net" });
      const m = await settled(t, r.body.message_id);
      assert.equal(m.status, "sent");
      assert.deepEqual(
        m.attempt_log.map((a: any) => a.status_code),
        [451, 451, 250],
      );
      const gone = await t.call("POST", "send-test-email", { to: "gone@example.net" });
      const g = await settled(t, gone.body.message_id);
      assert.equal(g.status, "failed");
      assert.equal(g.attempt_log.length, 1);
      assert.equal(g.attempt_log[0].status_code, 550);
      assert.equal((await smtp.received()).length, 1);
    });

    it("refuses a test e-mail when e-mail is not configured, and bad addresses", async () => {
      const t = await createTestApp(dialect);
      cleanup.push(() => t.close());
      const r = await t.call("POST", "send-test-email", { to: "a@example.net" });
      assert.equal(r.statusCode, 400);
      assert.match(r.body.message.to[0], /SMTP_URL/);
      const { t: t2 } = await world({}, (s) => mailEnv(s));
      const bad = await t2.call("POST", "send-test-email", { to: "not an address" });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.body.message.to);
    });
  });
}

describe("the rate per minute", () => {
  let smtp: SmtpServer;
  let t: TestApp;
  before(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(DIALECTS[0], mailEnv(smtp, { MAIL_RATE_PER_MINUTE: "3" }));
  });
  after(async () => {
    await t.close();
    await smtp.stop();
  });

  it("sends no more than MAIL_RATE_PER_MINUTE in a minute (every instance's attempts count); the rest waits, pending", async () => {
    for (let i = 0; i < 5; i++) assert.equal((await t.call("POST", "send-test-email", { to: `r${i}@example.net` })).statusCode, 200);
    const one = createMessageSender(t.deps, t.config, quiet);
    const other = createMessageSender(t.deps, t.config, quiet);
    try {
      assert.equal(await one.pass(), 3, "the first pass takes the minute's three");
      assert.equal(await other.pass(), 0, "another instance's pass finds the minute used up");
      assert.equal(await one.pass(), 0);
    } finally {
      one.close();
      other.close();
    }
    const list = (await t.call("GET", "message-list", { kind: "test" })).body.data;
    assert.equal(list.filter((m: any) => m.status === "sent").length, 3);
    assert.equal(list.filter((m: any) => m.status === "pending").length, 2);
    assert.equal((await smtp.waitFor(3)).length, 3);
  });
});
