/**
 * The write path chosen by dialect: on SQLite, jobs of one event-loop round share a transaction
 * (group commit) and a bad one fails alone; on PostgreSQL every job has a transaction of its own.
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
      if (dialect === "sqlite") {
        assert.deepEqual(batches, [["a@example.com", "taken@example.com", "b@example.com"], ["a@example.com"], ["taken@example.com"], ["b@example.com"]]);
      } else {
        assert.deepEqual(batches.map((b) => b.length), [1, 1, 1], "one transaction per job");
      }
    });
  });
}
