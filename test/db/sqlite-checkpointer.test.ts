/**
 * SQLite's checkpoints off the event loop (src/db/sqlite-checkpointer.ts), on a real database file:
 * a database that writes starts its checkpointer thread, whose checkpoints copy the log into the
 * database file while the connection's own automatic checkpoint would not have run yet; the log
 * stays bounded; a log held from restarting by a reader is caught up on the event loop once the
 * reader is gone; nothing written is lost across a close and a reopen; GET /metrics counts them.
 * SQLite only: PostgreSQL has no such thing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { createAppDeps } from "../../src/app-deps.js";
import { type DB, createDatabase, sqliteCheckpoints } from "../../src/db/database.js";
import { CHECKPOINTER_AFTER_WRITES } from "../../src/db/sqlite-checkpointer.js";
import { transaction } from "../../src/db/transaction.js";
import { DIALECTS } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";

const PAGE = 4096;
/** One row fills about a page: the log grows by known amounts. */
const FILLER = "x".repeat(3000);

describe("SQLite checkpoints off the event loop", { skip: !DIALECTS.includes("sqlite") }, () => {
  let dir: string;
  let file: string;
  let db: DB;
  let written = 0;

  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  /** `n` transactions of `rows` rows each, yielding to the event loop between them as a server does. */
  const write = async (n: number, rows = 1) => {
    for (let i = 0; i < n; i++) {
      await transaction(db, async (trx) => {
        for (let r = 0; r < rows; r++) await sql`insert into filler (body) values (${`${FILLER}${written++}`})`.execute(trx);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const stats = () => sqliteCheckpoints(db)!();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "guestwifi-checkpointer-"));
    file = join(dir, "db.sqlite");
    db = createDatabase(`sqlite:${file}`);
    await sql`create table filler (id integer primary key, body text not null)`.execute(db);
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts once the database has written, and its checkpoints copy the log into the database file", async () => {
    await write(CHECKPOINTER_AFTER_WRITES - 10);
    assert.deepEqual(stats(), { worker: 0, catchUp: 0 }, "not started before that many writes");
    // About 3,000 pages: below the 10,000 at which the connection would checkpoint itself now, and
    // more than SQLite's default 1,000, so only the checkpointer can have copied them.
    await write(1_500, 2);
    await waitUntil("the checkpointer ran", () => stats().worker > 0);
    await waitUntil("the rows reached the database file", () => size(file) > 2_000 * PAGE);
    assert.ok(size(`${file}-wal`) < 64 * 1024 * 1024, `the log is bounded (${size(`${file}-wal`)} bytes)`);
  });

  it("catches up on the event loop when a reader kept the log from restarting, and the log restarts", async () => {
    const reader = new SQLite(file, { readonly: true });
    try {
      // A read transaction pins its snapshot: no checkpoint can copy past it, the log only grows.
      reader.exec("begin");
      reader.prepare("select count(*) from filler").get();
      await write(2_500, 2);
      reader.exec("commit");
    } finally {
      reader.close();
    }
    await write(50);
    await waitUntil("a catch-up checkpoint ran on the event loop", () => stats().catchUp > 0);
    // The next transactions begin with every page copied: the log starts again from its beginning.
    await waitUntil(
      "the log restarted",
      async () => {
        await write(5);
        const probe = new SQLite(file);
        try {
          const [{ log }] = probe.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
          return log < 1_000;
        } finally {
          probe.close();
        }
      },
      60_000,
      100,
    );
  });

  it("keeps every row across a close and a reopen, and GET /metrics counts the checkpoints", async () => {
    const metrics = await createAppDeps(db).metrics.render();
    const worker = /guestwifi_sqlite_checkpoints_total\{where="worker"\} (\d+)/.exec(metrics.body);
    assert.ok(worker && Number(worker[1]) > 0, metrics.body.split("\n").filter((l) => l.includes("checkpoints")).join("\n"));
    await db.destroy();
    db = createDatabase(`sqlite:${file}`);
    const row = await sql<{ n: number }>`select count(*) as n from filler`.execute(db);
    assert.equal(Number(row.rows[0].n), written);
  });
});
