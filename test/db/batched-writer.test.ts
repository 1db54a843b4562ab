/**
 * The batched writer: jobs of one event-loop round share a transaction (group commit) and a bad one
 * fails alone; on PostgreSQL in lanes by key, so jobs of one key share a batch there too, and jobs of
 * other keys are written beside them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createBatchedWriter } from "../../src/db/batched-writer.js";
import { nowDatetime } from "../../src/db/time.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`batched writer (${dialect})`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(dialect);
    });
    after(async () => t.close());

    it("commits a burst, and when one job breaks its batch still commits the others", async () => {
      const batches: string[][] = [];
      const submit = createBatchedWriter(t.db, (emails: string[]) => {
        batches.push(emails);
        return t.db.transaction().execute(async (trx) => {
          const ids: number[] = [];
          for (const email of emails) {
            const row = await trx.insertInto("accounts").values({ email, created_at: nowDatetime() }).returning("id").executeTakeFirstOrThrow();
            ids.push(row.id);
          }
          return ids;
        });
      });
      await t.db.insertInto("accounts").values({ email: "taken@example.com", created_at: nowDatetime() }).execute();
      const results = await Promise.allSettled([submit("a@example.com"), submit("taken@example.com"), submit("b@example.com")]);
      assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
      const emails = await t.db.selectFrom("accounts").select("email").where("email", "in", ["a@example.com", "b@example.com"]).orderBy("email").execute();
      assert.deepEqual(emails.map((e) => e.email), ["a@example.com", "b@example.com"], "both good jobs committed once");
      // Every job has the same key (the default): one lane on PostgreSQL too.
      assert.deepEqual(batches, [["a@example.com", "taken@example.com", "b@example.com"], ["a@example.com"], ["taken@example.com"], ["b@example.com"]]);
    });

    it("writes jobs of many keys, each committed once, batches of one key in the order submitted", async () => {
      const batches: string[][] = [];
      const submit = createBatchedWriter(
        t.db,
        (emails: string[]) => {
          batches.push(emails);
          return t.db.transaction().execute(async (trx) => {
            for (const email of emails) await trx.insertInto("accounts").values({ email, created_at: nowDatetime() }).execute();
            return emails;
          });
        },
        (email) => email.split("-")[0],
      );
      const emails = Array.from({ length: 40 }, (_, i) => `k${i % 8}-${i}@example.com`);
      assert.deepEqual(await Promise.all(emails.map(submit)), emails);
      const stored = await t.db.selectFrom("accounts").select("email").where("email", "like", "k%-%@example.com").execute();
      assert.equal(stored.length, 40);
      for (const batch of batches) {
        const byKey = new Map<string, number[]>();
        for (const e of batch) byKey.set(e.split("-")[0], [...(byKey.get(e.split("-")[0]) ?? []), Number(e.split("-")[1].split("@")[0])]);
        for (const order of byKey.values()) assert.deepEqual(order, [...order].sort((a, b) => a - b));
      }
      if (dialect === "postgres") assert.ok(batches.length > 1, "several lanes on PostgreSQL");
      else assert.equal(batches.length, 1, "one transaction on SQLite");
    });
  });
}
