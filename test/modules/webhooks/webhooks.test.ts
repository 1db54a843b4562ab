/**
 * Webhooks: the API (SSRF rules, bad input, isolation, read-only sub-users, the secret shown once)
 * and delivery to a real local HTTP receiver that fails, then times out, then succeeds: Standard
 * Webhooks signatures, order per webhook, retries with backoff, failure after the retry period,
 * on PostgreSQL order across transactions that commit in another order than they queued, and two
 * workers on one database sending each delivery once.
 */
import assert from "node:assert/strict";
import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { loadConfig } from "../../../src/config.js";
import { type WebhookWorker, startWebhookWorker } from "../../../src/modules/webhooks/webhook-delivery.js";
import { createWebhookRepository } from "../../../src/modules/webhooks/webhooks.repository.js";
import { verifySignature } from "../../../src/modules/webhooks/webhook-signature.js";
import { enqueueEvent } from "../../../src/modules/webhooks/webhook-events.js";
import { transaction } from "../../../src/db/transaction.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeSubUser } from "../../helpers/sub-users.js";
import { createLocation, login } from "../guests/guests-fixtures.js";
import { waitUntil } from "../../helpers/wait.js";

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  at: number;
}

/** A receiver whose answer to the n-th request (from 1) is decided by `behave`: a status, or "hang". */
async function receiver(behave: (n: number, body: string) => number | "hang"): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  let n = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      got.push({
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body,
        at: Date.now(),
      });
      const what = behave(++n, body);
      if (what === "hang") return; // never answers: the sender's timeout
      res.writeHead(what).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

for (const dialect of DIALECTS) {
  describe(`webhooks API (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t?.close());

    it("creates, lists (no secret), updates and deletes; refuses bad input, private and link-local targets", async () => {
      const loc = await createLocation(t, "Europe/Paris");
      const created = await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/h", events: "guest.login, session.stop", location_ids: String(loc) });
      assert.equal(created.statusCode, 200, JSON.stringify(created.body));
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
      assert.deepEqual(created.body.data.events, ["guest.login", "session.stop"]);
      assert.deepEqual(created.body.data.location_ids, [loc]);
      const id = created.body.webhook_id;
      const list = await t.call("GET", "webhook-list");
      assert.equal(list.body.data.length, 1);
      assert.equal(JSON.stringify(list.body).includes("whsec_"), false, "the secret is shown once only");
      const updated = await t.call("POST", "create-or-update-webhook", { webhook_id: id, url: "https://93.184.215.14/h2", events: "guest.erased" });
      assert.equal(updated.statusCode, 200);
      assert.equal(updated.body.secret, undefined);
      assert.deepEqual(updated.body.data.location_ids, []);

      const count = async () => Number((await t.db.selectFrom("webhooks").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      const before = await count();
      for (const [params, param] of [
        [{ url: "http://127.0.0.1:9/h", events: "guest.login" }, "url"],
        [{ url: "http://10.0.0.8/h", events: "guest.login" }, "url"],
        [{ url: "http://169.254.169.254/latest/meta-data", events: "guest.login" }, "url"],
        [{ url: "http://[fe80::1]/h", events: "guest.login" }, "url"],
        [{ url: "http://localhost/h", events: "guest.login" }, "url"],
        // IPv4-compatible loopback, 6to4 of loopback, site-local, IETF protocol assignments: not public.
        [{ url: "http://[::7f00:1]/h", events: "guest.login" }, "url"],
        [{ url: "http://[2002:7f00:1::]/h", events: "guest.login" }, "url"],
        [{ url: "http://[fec0::1]/h", events: "guest.login" }, "url"],
        [{ url: "http://192.0.0.1/h", events: "guest.login" }, "url"],
        [{ url: "ftp://93.184.215.14/h", events: "guest.login" }, "url"],
        [{ url: "https://user:pw@93.184.215.14/h", events: "guest.login" }, "url"],
        [{ url: "not a url", events: "guest.login" }, "url"],
        [{ url: "https://93.184.215.14/h", events: "guest.logout" }, "events"],
        [{ url: "https://93.184.215.14/h", events: "," }, "events"],
        [{ url: "https://93.184.215.14/h", events: "guest.login", location_ids: "999999" }, "location_ids"],
      ] as const) {
        const res = await t.call("POST", "create-or-update-webhook", params);
        assert.equal(res.statusCode, 400, JSON.stringify(params));
        assert.equal(res.body.status, "error");
        assert.ok(res.body.message[param], `${JSON.stringify(params)}: ${JSON.stringify(res.body)}`);
      }
      assert.equal(await count(), before, "refused calls write nothing");
      const meta = await t.call("POST", "create-or-update-webhook", { url: "http://169.254.169.254/", events: "guest.login" });
      assert.match(meta.body.message.url[0], /link-local/);

      // Another account sees nothing of it; a read-only sub-user reads but cannot write.
      const other = await t.newAccount();
      for (const [m, path, p] of [
        ["POST", "delete-webhook", { webhook_id: id }],
        ["GET", "webhook-delivery-list", { webhook_id: id }],
        ["POST", "create-or-update-webhook", { webhook_id: id, url: "https://93.184.215.14/x", events: "guest.login" }],
      ] as const) {
        const res = await t.call(m, path, p, { identifier: other.identifier });
        assert.deepEqual(res.body, { status: "error", message: { webhook_id: ["The selected webhook_id is invalid."] } }, path);
      }
      assert.deepEqual((await t.call("GET", "webhook-list", {}, { identifier: other.identifier })).body.data, []);
      const ro = await makeSubUser(t, { readonly: true });
      assert.equal((await t.call("GET", "webhook-list", {}, { identifier: ro.identifier })).statusCode, 200);
      assert.notEqual((await t.call("POST", "delete-webhook", { webhook_id: id }, { identifier: ro.identifier })).statusCode, 200);
      assert.notEqual((await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/h", events: "guest.login" }, { identifier: ro.identifier })).statusCode, 200);

      const del = await t.call("POST", "delete-webhook", { webhook_id: id });
      assert.equal(del.statusCode, 200);
      assert.equal((await t.call("POST", "delete-webhook", { webhook_id: id })).statusCode, 400);
      assert.deepEqual((await t.call("GET", "webhook-list")).body.data, []);
    });
  });

  describe(`guest.login and the marketing opt-in (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t?.close());

    it("sends personal fields only for a login with a recorded opt-in; nothing is queued without a webhook", async () => {
      const loc = await createLocation(t, "Europe/Paris");
      const base = { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", at: "2026-05-04T10:00:00Z", clientMac: "02:00:00:00:0B:01" };
      await login(t, { ...base, identity: "before@example.com", profile: { email: "before@example.com" } });
      assert.equal((await t.db.selectFrom("webhook_deliveries").selectAll().execute()).length, 0, "no webhook: nothing queued");
      const hook = await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/m", events: "guest.login" });
      assert.equal(hook.statusCode, 200);
      const { recordLogin } = await import("../../../src/modules/guests/guest-activity.service.js");
      const consent = (ticked: boolean) => ({ termsAccepted: true, termsVersion: "t1", marketingOffered: true, marketingTicked: ticked, marketingVersion: "m1" });
      const common = { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", campaignId: 1, deviceId: null, loginType: "Cuser" as const, clientMac: "02:00:00:00:0B:02", userAgent: "test" };
      const yes = await recordLogin(t.db, { ...common, identity: "yes@example.com", profile: { email: "yes@example.com", full_name: "Yes Person" }, consent: consent(true) });
      const no = await recordLogin(t.db, { ...common, identity: "no@example.com", profile: { email: "no@example.com", full_name: "No Person" }, consent: consent(false) });
      const rows = await t.db.selectFrom("webhook_deliveries").select("payload").orderBy("id").execute();
      assert.equal(rows.length, 2);
      const [a, b] = rows.map((r) => JSON.parse(r.payload).data);
      assert.equal(a.guest_id, yes.guestId);
      assert.equal(a.login_id, yes.loginId);
      assert.equal(a.marketing_opt_in, true);
      assert.equal(a.email, "yes@example.com");
      assert.equal(a.full_name, "Yes Person");
      assert.equal(a.client_mac, "02:00:00:00:0B:02");
      assert.equal(b.guest_id, no.guestId);
      assert.equal(b.marketing_opt_in, false);
      assert.equal(rows[1]!.payload.includes("no@example.com"), false);
      assert.equal(rows[1]!.payload.includes("No Person"), false);
      assert.equal(rows[1]!.payload.includes("0B:02"), false);
    });
  });

  describe(`webhook delivery (${dialect})`, () => {
    let t: TestApp;
    let loc: number;
    let otherLoc: number;
    const workers: WebhookWorker[] = [];
    before(async () => {
      t = await createTestApp(dialect, { WEBHOOK_ALLOW_PRIVATE: "true" });
      loc = await createLocation(t, "Europe/Paris", "Here");
      otherLoc = await createLocation(t, "Europe/Paris", "Elsewhere");
    });
    after(async () => {
      for (const w of workers) await w.stop();
      await t?.close();
    });
    // The attempt timeout is long enough that a loaded machine's slow answer is not taken for a hang
    // (the "hang" receiver never answers, so the timeout is what that attempt takes).
    const TIMEOUT_MS = 1000;
    const cfg = (env: Record<string, string> = {}) =>
      loadConfig({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_BASE_MS: "50", WEBHOOK_POLL_MS: "20", ...env }).webhooks;
    const deliveries = async (webhookId: number) => {
      const res = await t.call("GET", "webhook-delivery-list", { webhook_id: webhookId, limit: 100 });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return res.body.data as any[];
    };

    it("fails, times out, then succeeds: signed, in order, retried with backoff, logged; ids only without opt-in", async () => {
      const rx = await receiver((n) => (n === 1 ? 500 : n === 2 ? "hang" : 204));
      try {
        const hook = await t.call("POST", "create-or-update-webhook", { url: rx.url, events: "guest.login", location_ids: String(loc) });
        assert.equal(hook.statusCode, 200, JSON.stringify(hook.body));
        const secret: string = hook.body.secret;
        const at = (m: number) => `2026-05-01T10:0${m}:00Z`;
        const guests: number[] = [];
        for (let i = 0; i < 3; i++) {
          const g = await login(t, { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", at: at(i), identity: `g${i}@example.com`, profile: { email: `g${i}@example.com` }, clientMac: `02:00:00:00:00:0${i}` });
          guests.push(g.guestId);
        }
        // A login at a location the webhook does not follow queues nothing.
        await login(t, { accountId: t.accountId, locationId: otherLoc, timezone: "Europe/Paris", at: at(5), identity: "elsewhere@example.com" });
        assert.equal((await deliveries(hook.body.webhook_id)).length, 3);

        workers.push(startWebhookWorker(t.db, cfg(), silent));
        await waitUntil("three deliveries", async () => (await deliveries(hook.body.webhook_id)).every((d) => d.status === "delivered"));

        // Every request is signed with the secret, over its exact body.
        for (const r of rx.got) assert.ok(verifySignature(secret, r.id, r.timestamp, r.body, r.signature), `signature of ${r.id}`);
        assert.equal(verifySignature(secret, rx.got[0]!.id, rx.got[0]!.timestamp, `${rx.got[0]!.body} `, rx.got[0]!.signature), false);
        // The first delivery was tried three times with one webhook-id; nothing after it went out before it succeeded.
        const ids = rx.got.map((r) => r.id);
        assert.deepEqual(ids.slice(0, 3), [ids[0], ids[0], ids[0]]);
        assert.equal(new Set(ids).size, 3);
        assert.deepEqual(ids.slice(2), [...new Set(ids)], "in order: each message after the previous one succeeded");
        const bodies = rx.got.slice(2).map((r) => JSON.parse(r.body));
        assert.deepEqual(
          bodies.map((b) => b.data.guest_id),
          guests,
        );
        for (const b of bodies) {
          assert.equal(b.type, "guest.login");
          assert.equal(b.data.marketing_opt_in, false);
          assert.equal(b.data.email, undefined, "no personal field without a marketing opt-in");
          assert.equal(b.data.client_mac, undefined);
          assert.equal(b.data.location_id, loc);
        }
        // Backoff: the retry after the timeout came at least the timeout and the doubled base (100 ms) later.
        assert.ok(rx.got[2]!.at - rx.got[1]!.at >= TIMEOUT_MS + 100 - 50, `second retry after ${rx.got[2]!.at - rx.got[1]!.at} ms`);

        const log = (await deliveries(hook.body.webhook_id)).reverse();
        assert.deepEqual(
          log[0].attempt_log.map((a: any) => a.status_code),
          [500, null, 204],
        );
        assert.match(log[0].attempt_log[1].error, /timed out/);
        assert.equal(log[0].attempts, 3);
        assert.equal(log[0].message_id, ids[0]);
        assert.deepEqual(
          log.map((d: any) => d.attempts),
          [3, 1, 1],
        );
        // Paging: newest first, before_delivery_id.
        const page = await t.call("GET", "webhook-delivery-list", { webhook_id: hook.body.webhook_id, limit: 2 });
        assert.equal(page.body.data.length, 2);
        const rest = await t.call("GET", "webhook-delivery-list", { webhook_id: hook.body.webhook_id, limit: 2, before_delivery_id: page.body.next_before_delivery_id });
        assert.equal(rest.body.data.length, 1);
        assert.equal(rest.body.next_before_delivery_id, 0);
        await t.call("POST", "delete-webhook", { webhook_id: hook.body.webhook_id });
      } finally {
        await rx.close();
      }
    });

    it("sends a burst in runs, in order: a failure mid-run holds those after it back, and their attempts are not counted", async () => {
      for (const w of workers.splice(0)) await w.stop();
      // The fourth request fails once; everything else succeeds.
      const rx = await receiver((n) => (n === 4 ? 500 : 204));
      try {
        const hook = await t.call("POST", "create-or-update-webhook", { url: rx.url, events: "guest.login" });
        const n = 8;
        for (let i = 0; i < n; i++) {
          await login(t, { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", at: "2026-05-04T10:00:00Z", identity: `run${i}@example.com` });
        }
        workers.push(startWebhookWorker(t.db, cfg(), silent));
        await waitUntil("all delivered", async () => (await deliveries(hook.body.webhook_id)).every((d) => d.status === "delivered"));
        for (const w of workers.splice(0)) await w.stop();
        const log = (await deliveries(hook.body.webhook_id)).reverse();
        const ids = log.map((d: any) => d.message_id);
        assert.deepEqual(
          rx.got.map((r) => r.id),
          [...ids.slice(0, 4), ...ids.slice(3)],
          "in order, the failed one again before any after it",
        );
        assert.deepEqual(
          log.map((d: any) => d.attempts),
          [1, 1, 1, 2, 1, 1, 1, 1],
        );
        assert.deepEqual(
          log[3].attempt_log.map((a: any) => a.status_code),
          [500, 204],
        );
        for (const d of log) {
          assert.equal(d.attempt_log.length, d.attempts);
          assert.equal(d.last_status_code, 204);
          const last = d.attempt_log[d.attempt_log.length - 1];
          assert.equal(Date.parse(d.finished_at), Date.parse(last.attempted_at) + last.duration_ms, "finished when its own attempt ended");
        }
        await t.call("POST", "delete-webhook", { webhook_id: hook.body.webhook_id });
      } finally {
        await rx.close();
      }
    });

    it("marks a delivery failed once it has failed for the whole retry period, then sends the next", async () => {
      for (const w of workers.splice(0)) await w.stop();
      const rx = await receiver(() => 503);
      try {
        const hook = await t.call("POST", "create-or-update-webhook", { url: rx.url, events: "guest.login" });
        await login(t, { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", at: "2026-05-02T10:00:00Z", identity: "fail@example.com" });
        await login(t, { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", at: "2026-05-02T10:01:00Z", identity: "fail2@example.com" });
        // Retried for 3 s with waits of 100, 200, 400, 800 ms: at least three attempts unless each took
        // about a second. Every check below compares recorded times with each other, never a wall clock.
        const retryForMs = 3000;
        workers.push(startWebhookWorker(t.db, cfg({ WEBHOOK_RETRY_FOR_MS: String(retryForMs), WEBHOOK_RETRY_BASE_MS: "100" }), silent));
        await waitUntil("failed", async () => (await deliveries(hook.body.webhook_id)).every((d) => d.status === "failed"));
        const [second, first] = await deliveries(hook.body.webhook_id);
        assert.ok(first.attempts >= 3, `${first.attempts} attempts: ${JSON.stringify(first.attempt_log)}`);
        assert.equal(first.last_status_code, 503);
        assert.equal(first.attempt_log.length, first.attempts);
        const log = first.attempt_log as { attempted_at: string; duration_ms: number }[];
        const starts = log.map((a) => Date.parse(a.attempted_at));
        // Exponential: each retry (but the last, cut at the end of the retry period) started at least the
        // backoff of its attempt, 100 ms doubled per failure, after the previous attempt ended.
        for (let i = 1; i < starts.length - 1; i++) {
          const waited = starts[i] - (starts[i - 1] + log[i - 1].duration_ms);
          assert.ok(waited >= 100 * 2 ** (i - 1) - 1, `wait before attempt ${i + 1} was ${waited} ms: ${JSON.stringify(log)}`);
        }
        // Failed only once an attempt ended after the period (1 ms: times are recorded in whole ms).
        const created = Date.parse(first.created_at);
        const lastEnd = starts[starts.length - 1] + log[log.length - 1].duration_ms;
        assert.ok(lastEnd >= created + retryForMs - 1, `last attempt ended ${lastEnd - created} ms after the event`);
        assert.ok(starts.slice(0, -1).every((x) => x < created + retryForMs), "no retry began after the period but the last");
        assert.ok(Date.parse(first.finished_at) >= lastEnd - 1);
        // Order: the next delivery was first tried only once the first had failed for good.
        assert.ok(Date.parse(second.attempt_log[0].attempted_at) >= Date.parse(first.finished_at));
        await t.call("POST", "delete-webhook", { webhook_id: hook.body.webhook_id });
      } finally {
        await rx.close();
      }
    });

    if (dialect === "postgres") {
      /**
       * Two events of two transactions: the first begins (takes its transaction id), the second
       * queues B and commits, then the first queues A (a higher delivery id) and stays open. Sent by
       * id, B went at once and A after it. Here A comes first, the order the transactions began in,
       * and B waits for A's transaction to end. `check` runs while A's transaction is open; `endA`
       * commits it and waits for both deliveries.
       */
      const outOfOrder = async (
        env: Record<string, string>,
        check: (s: {
          rx: Awaited<ReturnType<typeof receiver>>;
          bAt: number;
          order: () => string[];
          warnings: { obj: Record<string, unknown>; msg?: string }[];
          waitingPasses: () => number;
          endA: () => Promise<void>;
        }) => Promise<void>,
      ) => {
        for (const w of workers.splice(0)) await w.stop();
        const rx = await receiver(() => 204);
        const hook = await t.call("POST", "create-or-update-webhook", { url: rx.url, events: "guest.erased" });
        assert.equal(hook.statusCode, 200, JSON.stringify(hook.body));
        const signal = () => {
          let fire!: () => void;
          const fired = new Promise<void>((r) => (fire = r));
          return { fire, fired };
        };
        const [began, bQueued, aQueued, held] = [signal(), signal(), signal(), signal()];
        const first = transaction(t.db, async (trx) => {
          await sql`select pg_current_xact_id()`.execute(trx);
          began.fire();
          await bQueued.fired;
          await enqueueEvent(trx, t.accountId, "guest.erased", { order: "A" });
          aQueued.fire();
          await held.fired;
        });
        try {
          await began.fired;
          // Taken before B is queued: B's queue time (created_ms) is at or after it.
          const bAt = Date.now();
          await enqueueEvent(t.db, t.accountId, "guest.erased", { order: "B" });
          bQueued.fire();
          await aQueued.fired;
          const warnings: { obj: Record<string, unknown>; msg?: string }[] = [];
          // The worker's reads of the heads, counted when a head had to wait: the event that shows
          // the worker looked at B and held it back.
          const repo = createWebhookRepository();
          let waiting = 0;
          const watched = {
            ...repo,
            async dueHeads(...args: Parameters<typeof repo.dueHeads>) {
              const heads = await repo.dueHeads(...args);
              if (heads.some((h) => !h.settled)) waiting++;
              return heads;
            },
          };
          workers.push(startWebhookWorker(t.db, cfg(env), { ...silent, warn: (obj, msg) => warnings.push({ obj: obj as Record<string, unknown>, msg }) }, watched));
          const endA = async () => {
            held.fire();
            await first;
            await waitUntil("both delivered", () => rx.got.length >= 2);
          };
          const order = () => rx.got.map((r) => JSON.parse(r.body).data.order as string);
          await check({ rx, bAt, order, warnings, waitingPasses: () => waiting, endA });
          await t.call("POST", "delete-webhook", { webhook_id: hook.body.webhook_id });
        } finally {
          held.fire();
          await first;
          await rx.close();
        }
      };

      it("PostgreSQL: an event waits for an older transaction still running, so it is never sent before one queued there", async () => {
        await outOfOrder({}, async ({ order, warnings, waitingPasses, endA }) => {
          // B is committed and due; A's transaction began before B's and has queued an event that
          // comes first. Nothing can be sent until it ends: the worker reads the heads and holds B back.
          await waitUntil("the worker held B back twice", () => waitingPasses() >= 2);
          assert.deepEqual(order(), [], "B waited for the transaction that queued A");
          await endA();
          assert.deepEqual(order(), ["A", "B"]);
          assert.deepEqual(warnings, [], "nothing was sent before its turn");
        });
      });

      it("PostgreSQL: an event waits for older transactions at most WEBHOOK_ORDER_WAIT_MS", async () => {
        await outOfOrder({ WEBHOOK_ORDER_WAIT_MS: "300" }, async ({ rx, bAt, order, warnings, endA }) => {
          await waitUntil("B sent while A's transaction runs", () => rx.got.length >= 1);
          assert.deepEqual(order(), ["B"]);
          assert.ok(rx.got[0]!.at - bAt >= 300, `B sent ${rx.got[0]!.at - bAt} ms after it was queued`);
          await endA();
          assert.deepEqual(order(), ["B", "A"]);
          // The operator is told, once: B went out while an older transaction was still open.
          assert.equal(warnings.length, 1, JSON.stringify(warnings));
          assert.equal(warnings[0]!.obj.deliveryId, Number(rx.got[0]!.id.slice(4)));
          assert.match(String(warnings[0]!.msg), /waited WEBHOOK_ORDER_WAIT_MS \(300 ms\) for an older transaction/);
        });
      });

      it("PostgreSQL: WEBHOOK_ORDER_WAIT_MS=0 sends each event once committed, and warns of nothing", async () => {
        await outOfOrder({ WEBHOOK_ORDER_WAIT_MS: "0" }, async ({ rx, order, warnings, endA }) => {
          await waitUntil("B sent while A's transaction runs", () => rx.got.length >= 1);
          await endA();
          assert.deepEqual(order(), ["B", "A"]);
          assert.deepEqual(warnings, [], "the operator chose not to wait");
        });
      });
    }

    it("two workers on one database send each delivery once", async () => {
      for (const w of workers.splice(0)) await w.stop();
      const rx = await receiver(() => 200);
      try {
        const hook = await t.call("POST", "create-or-update-webhook", { url: rx.url, events: "guest.login" });
        const hook2 = await t.call("POST", "create-or-update-webhook", { url: `${rx.url}?second`, events: "guest.login" });
        const n = 30;
        for (let i = 0; i < n; i++) {
          await login(t, { accountId: t.accountId, locationId: loc, timezone: "Europe/Paris", at: "2026-05-03T10:00:00Z", identity: `many${i}@example.com` });
        }
        workers.push(startWebhookWorker(t.db, cfg(), silent), startWebhookWorker(t.db, cfg(), silent));
        const all = async () => [...(await deliveries(hook.body.webhook_id)), ...(await deliveries(hook2.body.webhook_id))];
        await waitUntil("all delivered", async () => (await all()).every((d) => d.status === "delivered"));
        // Stopped workers send nothing more (stop() waits for attempts under way): what the receiver
        // has now is all that was ever sent, without waiting for sends that should not happen.
        for (const w of workers.splice(0)) await w.stop();
        assert.deepEqual(
          (await all()).map((d) => d.attempts),
          Array(2 * n).fill(1),
          "each delivery taken by one worker, once",
        );
        assert.equal(rx.got.length, 2 * n, "no delivery sent twice");
        assert.equal(new Set(rx.got.map((r) => r.id)).size, 2 * n);
        // Per webhook, in order of the events.
        const seqOf = (r: Received) => Number(r.id.slice(4));
        for (const h of [hook, hook2]) {
          const ids = new Set((await deliveries(h.body.webhook_id)).map((d) => d.message_id));
          assert.equal(ids.size, n);
          const order = rx.got.filter((r) => ids.has(r.id)).map(seqOf);
          assert.deepEqual(order, [...order].sort((a, b) => a - b));
        }
      } finally {
        await rx.close();
      }
    });
  });
}
