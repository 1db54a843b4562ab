/**
 * Webhooks survive `kill -9`: the real service runs in its own process and queues session.start
 * events (RADIUS Accounting-Requests over UDP) to a local receiver; once half the Starts are in, the
 * receiver stops answering, so that a delivery is in flight (its request held open) when the process
 * is killed with SIGKILL: no timing decides it. After a restart on the same
 * database every event of an acknowledged Start reaches the receiver (at least once: a delivery
 * cut off mid-flight is sent again with the same webhook-id), and the first receipts come in the
 * webhook's one order: ids on SQLite, (queuing transaction, id) on PostgreSQL.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { type CliDatabase, cliDatabase } from "../cli/cli-db.js";
import { DIALECTS } from "../helpers/db.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { rawExchange } from "../radius/radclient.js";
import { accountingRequestBytes } from "../radius/raw-packets.js";
import { apiCall, apiPost, registerDevice } from "./service-probes.js";

/** Starts acknowledged before the kill: the receiver holds its requests from the half on. */
const STARTS = 120;

/** Resolves when `cond` holds, checked at each `signal` call; fails after `ms`. */
function condition(what: string, ms: number) {
  let check: () => void = () => {};
  return {
    signal: () => check(),
    until: (cond: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
        check = () => {
          if (cond()) {
            clearTimeout(timer);
            resolve();
          }
        };
        check();
      }),
  };
}

for (const dialect of DIALECTS) {
  describe(`webhooks across kill -9 (${dialect})`, () => {
    let svc: ServiceProcess | undefined;
    let again: ServiceProcess | undefined;
    let t: CliDatabase | undefined;
    let server: Server | undefined;
    after(async () => {
      svc?.child.kill("SIGKILL");
      await again?.stop();
      server?.closeAllConnections();
      server?.close();
      await t?.close();
    });

    it("delivers every queued event after a kill mid-delivery and a restart", { timeout: 120_000 }, async () => {
      const got: { id: string; sessionId: number }[] = [];
      let hold = false;
      let held = 0;
      const heldOne = condition("a delivery held open", 60_000);
      const received = condition("every acknowledged Start delivered", 120_000);
      server = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => {
          body += c;
        });
        req.on("end", () => {
          if (hold) {
            // Never answered: the killed process has this delivery in flight.
            held++;
            heldOne.signal();
            return;
          }
          got.push({ id: String(req.headers["webhook-id"]), sessionId: JSON.parse(body).data.session_id });
          res.writeHead(200).end();
          received.signal();
        });
      });
      await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
      const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

      t = await cliDatabase(dialect);
      const env = {
        DATABASE_URL: t.url,
        LOG_LEVEL: "warn",
        API_RATE_LIMIT_PER_MINUTE: "0",
        WEBHOOK_ALLOW_PRIVATE: "true",
        WEBHOOK_TIMEOUT_MS: "1000",
        WEBHOOK_RETRY_BASE_MS: "100",
        WEBHOOK_POLL_MS: "50",
        RETENTION_INTERVAL_MS: "0",
      };
      svc = await startServiceProcess(env);
      const s = svc;
      const hook = await apiPost(s, "create-or-update-webhook", { url: hookUrl, events: "session.start" });
      assert.equal(hook.status, 200, JSON.stringify(hook.body));
      const ap = await registerDevice(s);

      const acked: string[] = [];
      const tag = randomBytes(3).toString("hex");
      let seq = 0;
      const loop = async () => {
        while (seq < STARTS) {
          const id = `wh-${tag}-${++seq}`;
          const start = accountingRequestBytes(ap.secret, seq % 256, [
            ["Acct-Status-Type", "Start"],
            ["Acct-Session-Id", id],
            ["NAS-Identifier", ap.mac.replaceAll(":", "-")],
          ]);
          if ((await rawExchange(s.acctPort, [start], 1, 3000)).length === 1) acked.push(id);
          // From the half on, deliveries are held open: those Starts queue behind the held one.
          if (seq >= STARTS / 2) hold = true;
        }
      };
      await Promise.all([loop(), loop(), loop()]);
      // Killed while the receiver holds a request open: a delivery is mid-flight.
      await heldOne.until(() => held > 0);
      s.child.kill("SIGKILL");
      await new Promise<void>((resolve) => (s.exited() !== undefined ? resolve() : s.child.once("exit", () => resolve())));
      assert.equal(s.exited(), "SIGKILL");
      const receivedBeforeRestart = got.length;
      assert.ok(acked.length >= 20, `only ${acked.length} Starts acknowledged`);

      const db = t.db();
      const sessions = await db.selectFrom("radius_sessions").select(["id", "acct_session_id"]).where("acct_session_id", "in", acked).execute();
      assert.equal(sessions.length, acked.length, "every acknowledged Start is stored");
      const pending = await db.selectFrom("webhook_deliveries").select("id").where("status", "=", "pending").execute();
      assert.ok(pending.length > 0, "deliveries were left pending by the kill");

      again = await startServiceProcess(env, undefined, { firstStart: false });
      const want = new Set(sessions.map((x) => Number(x.id)));
      hold = false;
      const missing = () => [...want].filter((id) => !got.some((g) => g.sessionId === id));
      await received.until(() => missing().length === 0).catch((err) => {
        assert.fail(`${err.message}: session.start never delivered for ${missing().length} sessions: ${missing().slice(0, 10)}`);
      });
      const firsts: number[] = [];
      const seen = new Set<string>();
      for (const g of got) {
        if (seen.has(g.id)) continue;
        seen.add(g.id);
        firsts.push(Number(g.id.slice(4)));
      }
      // The three senders' Starts go to different accounting lanes, whose transactions commit side
      // by side on PostgreSQL, and not always in the order of the ids they queued. The worker sends
      // in (tx, id) order, each once no older transaction can queue before it (docs/guest-data.md);
      // on SQLite tx is 0 and that is id order.
      const queued = await db.selectFrom("webhook_deliveries").select("id").where("webhook_id", "=", Number(hook.body.webhook_id)).orderBy("tx").orderBy("id").execute();
      assert.deepEqual(firsts, queued.map((d) => Number(d.id)), "first receipts in the webhook's order");
      const log = await apiCall({ ...again, identifier: s.identifier }, "webhook-delivery-list", { webhook_id: String(hook.body.webhook_id), status: "failed" });
      assert.equal(log.status, 200, JSON.stringify(log.body));
      assert.deepEqual(log.body.data, [], "no delivery failed");
      console.log(
        `${dialect}: ${acked.length} Starts acknowledged, ${receivedBeforeRestart} deliveries received before the kill, ` +
          `${got.length} in all (${got.length - seen.size} repeated after the kill), none lost`,
      );
    });
  });
}
