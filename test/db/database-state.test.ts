/**
 * Per-database state (write generation, statement cache, direct connection) belongs to the
 * database it was made with, not to the process: two databases in one process share nothing, and
 * a database's transactions see its own.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { changeGeneration, createDatabase, sqliteDirect } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";

describe("per-database state (SQLite)", () => {
  it("two databases in one process share nothing; a transaction shares its database's", async () => {
    const files = [0, 1].map(() => join(tmpdir(), `guestwifi-state-${randomBytes(5).toString("hex")}.db`));
    const [a, b] = files.map((f) => createDatabase(`sqlite:${f}`));
    try {
      await migrateToLatest(a);
      await migrateToLatest(b);
      assert.ok(sqliteDirect(a) && sqliteDirect(b));
      assert.notEqual(sqliteDirect(a), sqliteDirect(b));
      const genB = changeGeneration(b);
      const genA = changeGeneration(a);
      await createAccount({ db: a, repos: createRepositories() }, "state@example.com");
      assert.notEqual(changeGeneration(a), genA, "a's own write moves a's generation");
      assert.equal(changeGeneration(b), genB, "and not b's");
      await a.transaction().execute(async (trx) => {
        assert.equal(sqliteDirect(trx), sqliteDirect(a), "a transaction runs on its database's connection");
        assert.equal(changeGeneration(trx), undefined, "nothing is cached inside a transaction");
      });
    } finally {
      await a.destroy();
      await b.destroy();
      for (const f of files) for (const s of ["", "-wal", "-shm"]) rmSync(f + s, { force: true });
    }
  });
});
