/**
 * Work that must follow a commit (src/db/transaction.ts): a callback queued with afterCommit runs
 * once its transaction has committed, never when it rolls back; the outbox workers are woken that
 * way, and a location's new limits reach its live sessions (CoA) that way. On SQLite and PostgreSQL.
 * Callbacks run before `transaction()` resolves, so "not run" is read right after it, without waiting.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createSiblingDatabase } from "../../src/db/database.js";
import { onOutboxWrite } from "../../src/db/outbox.js";
import { afterCommit, inTransaction, retryingTransaction, transaction } from "../../src/db/transaction.js";
import type { CoaOutcome, LimitOptions, SessionControl } from "../../src/modules/context.js";
import { setSessionAndBandwidth } from "../../src/modules/locations/locations.service.js";
import { enqueueEvent } from "../../src/modules/webhooks/webhook-events.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";

for (const dialect of DIALECTS) {
  describe(`after-commit hooks (${dialect})`, () => {
    let t: TestApp;
    let locationId: number;
    before(async () => {
      t = await createTestApp(dialect);
      const res = await t.call("POST", "create-or-update-location", locationParams());
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      locationId = res.body.location_id;
    });
    after(() => t.close());

    const renamed = (name: string) => t.db.selectFrom("locations").select("name").where("id", "=", locationId).where("name", "=", name).executeTakeFirst();

    it("runs a callback once its transaction has committed, and sees what it wrote", async () => {
      const seen: (string | undefined)[] = [];
      await transaction(t.db, async (trx) => {
        await trx.updateTable("locations").set({ name: "After commit" }).where("id", "=", locationId).execute();
        afterCommit(trx, async () => {
          // On the app's database, outside the transaction: the row is there for everyone.
          seen.push((await renamed("After commit"))?.name);
        });
        assert.equal(seen.length, 0, "not before the commit");
      });
      // Started before transaction() resolved; its read is under way or done.
      await waitUntil("the callback ran", () => seen.length === 1, 60_000, 1);
      assert.deepEqual(seen, ["After commit"]);
    });

    it("drops the callbacks of a transaction that rolls back", async () => {
      let ran = 0;
      await assert.rejects(
        transaction(t.db, async (trx) => {
          await trx.updateTable("locations").set({ name: "Rolled back" }).where("id", "=", locationId).execute();
          afterCommit(trx, () => ran++);
          throw new Error("refused");
        }),
        /refused/,
      );
      assert.equal(ran, 0);
      assert.equal(await renamed("Rolled back"), undefined);
    });

    it("runs at once outside a transaction, where each statement commits by itself", () => {
      let ran = 0;
      afterCommit(t.db, () => ran++);
      assert.equal(ran, 1);
    });

    it("waits for the outermost transaction when a service joins its caller's", async () => {
      const order: string[] = [];
      await transaction(t.db, async (trx) => {
        await inTransaction(trx, async (inner) => {
          afterCommit(inner, () => order.push("callback"));
        });
        order.push("inner done");
      });
      assert.deepEqual(order, ["inner done", "callback"]);
      let ran = 0;
      await assert.rejects(
        transaction(t.db, async (trx) => {
          await inTransaction(trx, async (inner) => afterCommit(inner, () => ran++));
          throw new Error("outer refused");
        }),
      );
      assert.equal(ran, 0, "the outer rollback drops what the inner part queued");
    });

    it("runs the callbacks of the route pipeline's retrying transaction after its commit", async () => {
      let ran = 0;
      await retryingTransaction(t.db, async (trx) => {
        afterCommit(trx, () => ran++);
        assert.equal(ran, 0);
      });
      assert.equal(ran, 1);
    });

    it("refuses a transaction opened around transaction(): its commit would go unseen", async () => {
      await t.db.transaction().execute(async (trx) => {
        assert.throws(() => afterCommit(trx, () => undefined), /not opened by transaction\(\)/);
      });
    });

    it("wakes the webhook worker once a queued event commits, not when it rolls back", async () => {
      await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/hook", events: "guest.erased" });
      const wakes: string[] = [];
      const off = onOutboxWrite(t.db, "webhook_deliveries", () => wakes.push("wake"));
      try {
        await assert.rejects(
          transaction(t.db, async (trx) => {
            assert.equal(await enqueueEvent(trx, t.accountId, "guest.erased", { guest_id: 1 }), 1);
            throw new Error("rolled back");
          }),
        );
        assert.deepEqual(wakes, []);
        await transaction(t.db, async (trx) => {
          assert.equal(await enqueueEvent(trx, t.accountId, "guest.erased", { guest_id: 2 }), 1);
          assert.deepEqual(wakes, [], "not before the commit");
        });
        assert.deepEqual(wakes, ["wake"]);
      } finally {
        off();
      }
    });

    it("wakes the webhook worker for an event queued through a sibling pool (RADIUS's own connections)", async () => {
      await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/sibling", events: "guest.erased" });
      // On SQLite the sibling is the database itself; on PostgreSQL a pool of its own, whose writes
      // woke no worker before (the worker started on the service's database polled for them).
      const sibling = createSiblingDatabase(t.db, 1);
      const wakes: string[] = [];
      const off = onOutboxWrite(t.db, "webhook_deliveries", () => wakes.push("wake"));
      try {
        await transaction(sibling, async (trx) => {
          assert.ok((await enqueueEvent(trx, t.accountId, "guest.erased", { guest_id: 3 })) >= 1, "queued");
        });
        assert.deepEqual(wakes, ["wake"]);
      } finally {
        off();
        if (sibling !== t.db) await sibling.destroy();
      }
    });

    it("sends a location's new limits to its live sessions after the change commits, never after a rollback", async () => {
      const real = t.deps.sessionControl!;
      const sent: LimitOptions[] = [];
      const recording: SessionControl = {
        ...real,
        applyLocationOptions(id, options, timezone, config): Promise<CoaOutcome[]> {
          sent.push(options);
          return real.applyLocationOptions(id, options, timezone, config);
        },
      };
      const location = await t.deps.repos.locations.findById(t.db, locationId);
      assert.ok(location);
      const settings = { sessionTimeLimit: 600, maxBandwidthDown: 0, maxBandwidthUp: 0, dailyBandwidthCap: 0, contentFilter: false };
      await assert.rejects(
        transaction(t.db, async (trx) => {
          await setSessionAndBandwidth({ ...t.deps, db: trx, sessionControl: recording }, location, settings, t.config);
          throw new Error("rolled back");
        }),
      );
      assert.deepEqual(sent, []);
      await transaction(t.db, async (trx) => {
        await setSessionAndBandwidth({ ...t.deps, db: trx, sessionControl: recording }, location, { ...settings, sessionTimeLimit: 900 }, t.config);
        assert.deepEqual(sent, [], "not before the commit");
      });
      assert.deepEqual(sent, [{ session_time_limit: 900, max_bandwidth_up: 0, max_bandwidth_down: 0, daily_bandwidth_cap: 0 }]);
    });
  });
}

