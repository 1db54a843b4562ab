/**
 * The RADIUS server as the service runs it: alone (HTTP off) through startService, on ephemeral
 * ports, and stopped cleanly: in-flight packets finish before the database closes, ports are freed.
 */
import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { loadConfig } from "../../src/config.js";
import { createDatabase } from "../../src/db/database.js";
import { nowDatetime } from "../../src/db/time.js";
import { startService } from "../../src/server.js";
import { DIALECTS, PG_URL, createTestDb } from "../helpers/db.js";
import { openPeer, radclient } from "./radclient.js";
import { accountingRequestBytes } from "./raw-packets.js";
import { waitUntil } from "../helpers/wait.js";

async function portIsFree(port: number): Promise<boolean> {
  const s = createSocket("udp4");
  try {
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.bind(port, "127.0.0.1", () => resolve());
    });
    return true;
  } catch {
    return false;
  } finally {
    s.close();
  }
}

for (const dialect of DIALECTS) {
  describe(`radius server lifecycle (${dialect})`, () => {
    it("runs without HTTP, answers on ephemeral ports and stops only after in-flight work is done", async () => {
      const tdb = await createTestDb(dialect);
      const databaseUrl =
        dialect === "postgres" ? `${tdb.url}?options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}` : tdb.url;
      const errors: string[] = [];
      const logger = {
        level: "warn",
        stream: {
          write: (line: string) => {
            const entry = JSON.parse(line);
            errors.push(`${entry.msg}: ${entry.err?.message ?? ""}`);
          },
        },
      };
      const config = loadConfig({ DATABASE_URL: databaseUrl, RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0" });
      const service = await startService(config, { http: false, radius: true, logger });
      let stopped = false;
      try {
        assert.equal(service.httpPort, 0, "HTTP is off");
        const { authPort, acctPort } = service.radius!;
        assert.ok(authPort > 0 && acctPort > 0 && authPort !== acctPort, `bound ports ${authPort} and ${acctPort}`);

        const account = await service.db.insertInto("accounts").values({ email: `lifecycle-${dialect}@example.com`, created_at: nowDatetime() }).returning("id").executeTakeFirstOrThrow();
        const now = nowDatetime();
        const secret = "lifecycle-secret";
        await service.app.deps.repos.devices.insert(service.db, {
          account_id: account.id, location_id: null, model_id: "test-ap", name: "AP", mac_address: "02:00:00:00:00:01",
          radius_secret: secret, last_upgraded: null, last_heard_at: null, create_date: now, update_date: now,
        });
        const r = await radclient(acctPort, "acct", secret, ["Acct-Status-Type = Start", 'Acct-Session-Id = "one"', 'NAS-Identifier = "02-00-00-00-00-01"']);
        assert.equal(r.code, "Accounting-Response", r.output);

        // A burst still being processed when stop() is called: every packet the server had read
        // must be completed before stop() resolves (and before the database closes).
        const peer = await openPeer();
        const burst = Array.from({ length: 200 }, (_, i) =>
          accountingRequestBytes(secret, i % 256, [
            ["Acct-Status-Type", "Start"],
            ["Acct-Session-Id", `burst-${i}`],
            ["NAS-Identifier", "02-00-00-00-00-01"],
          ]),
        );
        const reader = createDatabase(dialect === "postgres" ? PG_URL : tdb.url, { searchPath: tdb.schema, poolSize: 1 });
        const stored = async () =>
          (await reader.selectFrom("radius_sessions").select("acct_session_id").where("acct_session_id", "like", "burst-%").execute()).map((r) => r.acct_session_id).sort();
        if (dialect === "postgres") {
          // A lock held by another connection keeps every packet of the burst in flight for certain.
          let release!: () => void;
          const released = new Promise<void>((resolve) => {
            release = resolve;
          });
          let locked!: () => void;
          const isLocked = new Promise<void>((resolve) => {
            locked = resolve;
          });
          const holder = reader.connection().execute(async (conn) => {
            await sql`begin`.execute(conn);
            await sql`lock table radius_sessions in exclusive mode`.execute(conn);
            locked();
            await released;
            await sql`commit`.execute(conn);
          });
          await isLocked;
          // Sent without waiting for answers (none can come behind the lock); stop() once the server
          // has read all 200 datagrams, each then in flight.
          await peer.exchange(acctPort, burst, 0, 0);
          await waitUntil("200 requests in flight", () => service.radius!.inFlight >= 200);
          let releasedFirst: boolean | undefined;
          let isReleased = false;
          const stopping = service.stop().then(() => {
            releasedFirst = isReleased;
          });
          // stop() has closed the sockets and waits: the lock is released only now, so a stop() that
          // did not wait for the packets would have resolved first (an ordering, not a pause).
          isReleased = true;
          release();
          await holder;
          await stopping;
          assert.equal(releasedFirst, true, "stop() waited for the packets being processed");
          assert.equal((await stored()).length, 200, "every packet read before stop() was completed");
        } else {
          // SQLite commits a burst within a few event-loop turns: stop() comes as soon as the first
          // answer is back, with the rest still being read and written.
          const answers = await peer.exchange(acctPort, burst, 1, 2000);
          assert.ok(answers.length >= 1);
          await service.stop();
          // Nothing can be written after stop() resolved: nothing is in flight and the service's
          // connection is closed (a write through it fails), so no wait for late writes is needed.
          assert.equal(service.radius!.inFlight, 0, "no packet in flight after stop()");
          await assert.rejects(service.db.selectFrom("radius_sessions").select("id").execute(), "the service's database is closed");
          const atStop = await stored();
          assert.ok(atStop.length >= answers.length, `${atStop.length} stored, ${answers.length} answered`);
        }
        await reader.destroy();
        stopped = true;
        await peer.close();
        assert.deepEqual(errors, [], "no packet hit a closed database");
        assert.equal(await portIsFree(authPort), true);
        assert.equal(await portIsFree(acctPort), true);
      } finally {
        if (!stopped) await service.stop();
        await tdb.close();
      }
    });
  });
}
