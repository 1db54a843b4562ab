/**
 * E-mail survives `kill -9`: the real service runs in its own process and sends test e-mails
 * (each acknowledged by the API only once its outbox row committed) to a real SMTP server
 * (aiosmtpd) through a proxy that, once half the messages are acknowledged, stops passing bytes: the
 * messages taken then stay in the middle of their SMTP exchange until the process is killed with
 * SIGKILL, whatever the machine's speed. After a restart on the same database every acknowledged
 * message reaches the server: none lost; a message sent twice is only one that was mid-flight at
 * the kill (at least once), and its copies carry the same Message-ID.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, it } from "node:test";
import { type CliDatabase, cliDatabase } from "../cli/cli-db.js";
import { DIALECTS } from "../helpers/db.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { type SmtpServer, startSmtpServer } from "../helpers/smtp-server.js";
import { type SilentProxy, startProxy } from "../helpers/tcp-proxy.js";
import { apiCall, apiPost } from "./service-probes.js";

/** Messages acknowledged before the kill; the SMTP path goes silent at the half. */
const MESSAGES = 120;

for (const dialect of DIALECTS) {
  describe(`e-mail across kill -9 (${dialect})`, () => {
    let svc: ServiceProcess | undefined;
    let again: ServiceProcess | undefined;
    let t: CliDatabase | undefined;
    let smtp: SmtpServer | undefined;
    let proxy: SilentProxy | undefined;
    after(async () => {
      await proxy?.close();
      svc?.child.kill("SIGKILL");
      await again?.stop();
      await smtp?.stop();
      await t?.close();
    });

    it("sends every acknowledged message after a kill mid-send and a restart, twice only what was in flight", { timeout: 180_000 }, async () => {
      smtp = await startSmtpServer();
      proxy = await startProxy(smtp.port);
      const path = proxy;
      t = await cliDatabase(dialect);
      const env = {
        DATABASE_URL: t.url,
        LOG_LEVEL: "warn",
        API_RATE_LIMIT_PER_MINUTE: "0",
        SMTP_URL: `smtp://127.0.0.1:${proxy.port}`,
        MAIL_FROM: "wifi@example.com",
        MAIL_RATE_PER_MINUTE: "100000",
        // A stalled exchange holds its lease this long: the kill comes well inside it.
        MESSAGE_TIMEOUT_MS: "10000",
        MESSAGE_RETRY_BASE_MS: "100",
        MESSAGE_POLL_MS: "50",
        MESSAGE_SCHEDULE_INTERVAL_MS: "0",
        RETENTION_INTERVAL_MS: "0",
        RADIUS_ENABLED: "false",
      };
      svc = await startServiceProcess(env);
      const s = svc;
      const tag = randomBytes(3).toString("hex");
      const acked: string[] = [];
      let seq = 0;
      const loop = async () => {
        while (seq < MESSAGES) {
          const to = `k${tag}-${++seq}@example.net`;
          const r = await apiPost(s, "send-test-email", { to }).catch(() => undefined);
          if (r?.status === 200) acked.push(to);
          // From the half on, the SMTP path is silent: the messages taken then hang mid-exchange.
          if (seq >= MESSAGES / 2) path.silence();
        }
      };
      await Promise.all([loop(), loop(), loop()]);
      const db = t.db();
      // Killed while a message holds its lease: it is in the middle of being sent (the path is
      // silent, so it stays there until its 10 s timeout; this finds it at once).
      const inFlight = async () =>
        (await db.selectFrom("messages").select("id").where("status", "=", "pending").where("lease_until_ms", ">", Date.now()).execute()).length;
      const deadline = Date.now() + 30_000;
      while ((await inFlight()) === 0) {
        assert.ok(Date.now() < deadline, "no message was taken within 30 s of the SMTP path going silent");
        await new Promise((r) => setTimeout(r, 5));
      }
      s.child.kill("SIGKILL");
      await new Promise<void>((resolve) => (s.exited() !== undefined ? resolve() : s.child.once("exit", () => resolve())));
      assert.equal(s.exited(), "SIGKILL");
      const cutOff = await db.selectFrom("messages").select("id").where("status", "=", "pending").where("attempts", ">", 0).execute();
      assert.ok(cutOff.length > 0, "messages were taken and left unfinished by the kill");
      const receivedBefore = (await smtp.received()).length;
      assert.ok(acked.length >= 20, `only ${acked.length} messages acknowledged`);
      const stored = await db.selectFrom("messages").select("recipient").where("recipient", "in", acked).execute();
      assert.equal(stored.length, acked.length, "every acknowledged message is in the outbox");

      path.resume();
      again = await startServiceProcess(env, undefined, { firstStart: false });
      const end = Date.now() + 90_000;
      let got = await smtp.received();
      const toOf = (m: (typeof got)[number]) => (m.mail.to && !Array.isArray(m.mail.to) ? (m.mail.to.value[0].address ?? "") : "");
      for (;;) {
        const arrived = new Set(got.map(toOf));
        const missing = acked.filter((a) => !arrived.has(a));
        if (missing.length === 0) break;
        if (Date.now() > end) assert.fail(`${missing.length} acknowledged messages never arrived: ${missing.slice(0, 5)}`);
        await new Promise((r) => setTimeout(r, 100));
        got = await smtp.received();
      }
      const byTo = new Map<string, string[]>();
      for (const m of got) byTo.set(toOf(m), [...(byTo.get(toOf(m)) ?? []), m.mail.messageId ?? ""]);
      const twice = [...byTo.entries()].filter(([, ids]) => ids.length > 1);
      assert.ok(twice.length <= cutOff.length, `${twice.length} sent twice, but only ${cutOff.length} were in flight at the kill`);
      for (const [, ids] of twice) assert.equal(new Set(ids).size, 1, "copies share their Message-ID");
      const probe = await apiCall({ ...again, identifier: s.identifier }, "message-list", { status: "failed", kind: "test" });
      assert.equal(probe.status, 200, JSON.stringify(probe.body));
      assert.deepEqual(probe.body.data, [], "no message failed");
      console.log(
        `${dialect}: ${acked.length} messages acknowledged, ${receivedBefore} received before the kill, ${cutOff.length} in flight at it, ` +
          `${got.length} received in all (${twice.length} twice), none lost`,
      );
    });
  });
}
