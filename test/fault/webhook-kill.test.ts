/**
 * Webhooks survive `kill -9`: the real service runs in its own process and queues session.start
 * events (RADIUS Accounting-Requests over UDP) to a local receiver that answers slowly, so that
 * deliveries are in flight when the process is killed with SIGKILL. After a restart on the same
 * database every event of an acknowledged Start reaches the receiver (at least once: a delivery
 * cut off mid-flight is sent again with the same webhook-id), first receipts in order.
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

const LOAD_MS = 2000;
/** Pause between one loop's Starts: three loops send at most about 400 in LOAD_MS. */
const PACE_MS = 15;

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
      let open = 0;
      server = createServer((req, res) => {
        open++;
        let body = "";
        req.on("data", (c) => {
          body += c;
        });
        req.on("end", () => {
          setTimeout(() => {
            got.push({ id: String(req.headers["webhook-id"]), sessionId: JSON.parse(body).data.session_id });
            open--;
            res.writeHead(200).end();
          }, 40);
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
      let writing = true;
      const tag = randomBytes(3).toString("hex");
      let seq = 0;
      const loop = async () => {
        while (writing) {
          const id = `wh-${tag}-${++seq}`;
          const start = accountingRequestBytes(ap.secret, seq % 256, [
            ["Acct-Status-Type", "Start"],
            ["Acct-Session-Id", id],
            ["NAS-Identifier", ap.mac.replaceAll(":", "-")],
          ]);
          if ((await rawExchange(s.acctPort, [start], 1, 3000)).length === 1) acked.push(id);
          // Paced: each webhook delivers one event at a time, so the catch-up after the restart
          // must stay well inside the wait below on a fast machine too (unpaced, an idle machine
          // queued 1,800 Starts, more than a minute of deliveries).
          await new Promise((r) => setTimeout(r, PACE_MS));
        }
      };
      const loops = [loop(), loop(), loop()];
      await new Promise((r) => setTimeout(r, LOAD_MS));
      // Killed while the receiver holds a request open: a delivery is mid-flight.
      const deadline = Date.now() + 5000;
      while (open === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      assert.ok(open > 0, "a delivery was in flight at the kill");
      s.child.kill("SIGKILL");
      writing = false;
      await Promise.allSettled(loops);
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
      const end = Date.now() + 60_000;
      while ([...want].some((id) => !got.some((g) => g.sessionId === id))) {
        if (Date.now() > end) {
          const missing = [...want].filter((id) => !got.some((g) => g.sessionId === id));
          assert.fail(`session.start never delivered for ${missing.length} sessions: ${missing.slice(0, 10)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const firsts: number[] = [];
      const seen = new Set<string>();
      for (const g of got) {
        if (seen.has(g.id)) continue;
        seen.add(g.id);
        firsts.push(Number(g.id.slice(4)));
      }
      assert.deepEqual(firsts, [...firsts].sort((a, b) => a - b), "first receipts in order");
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
