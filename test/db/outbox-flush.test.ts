/**
 * An outbox worker's bookkeeping skips PostgreSQL's wait for the WAL flush (skipFlushWait in
 * src/db/outbox.ts) inside its own transaction only: the pooled connection goes back to the pool
 * with the server's setting, so the next transaction on it (a guest's login) waits for its flush
 * as before.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { createDatabase } from "../../src/db/database.js";
import { skipFlushWait } from "../../src/db/outbox.js";
import { transaction } from "../../src/db/transaction.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";

describe("outbox bookkeeping without the flush wait (postgres)", { skip: !DIALECTS.includes("postgres") }, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb("postgres");
  });
  after(async () => t.close());

  const setting = async (db: typeof t.db) => (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(db)).rows[0].s;

  it("holds for the worker's transaction, and not for the next user of its connection", async () => {
    const url = t.url;
    const one = createDatabase(url, { poolSize: 1, searchPath: t.schema });
    try {
      const server = await setting(one);
      assert.notEqual(server, "off", "the server waits for flushes by default");
      const inside = await transaction(one, async (trx) => {
        await skipFlushWait(trx);
        return setting(trx);
      });
      assert.equal(inside, "off");
      // One connection in the pool: this is the same connection, after the commit.
      assert.equal(await setting(one), server);
      assert.equal(await transaction(one, (trx) => setting(trx)), server);
    } finally {
      await one.destroy();
    }
  });
});
