/**
 * Which database the guestwifi command opens: the one DATABASE_URL names, a relative SQLite path
 * taken in the installation's directory whatever the current directory, and never a new one made
 * silently by a command that needs an existing one (it refuses, creating nothing).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sql } from "kysely";
import { DIALECTS } from "../helpers/db.js";
import { BIN, cliDatabase } from "./cli-db.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

for (const dialect of DIALECTS) {
  describe(`guestwifi's database (${dialect})`, () => {
    it("commands that need an existing database refuse a missing one and create nothing; migrate creates it", async () => {
      const cdb = await cliDatabase(dialect);
      const env = { PATH: process.env.PATH, DATABASE_URL: cdb.url, LOG_LEVEL: "silent" };
      try {
        for (const args of [["account", "set-password", "--email", "admin@localhost"], ["guest", "export", "--id", "1"], ["quick-report", "--send-now"]]) {
          const child = run(process.execPath, [BIN, ...args], { env });
          child.child.stdin?.end("a-long-enough-password\n");
          await assert.rejects(child, (err: { code: number; stderr: string }) => {
            assert.equal(err.code, 1, err.stderr);
            assert.match(err.stderr, /no guestwifi (database at|tables)/);
            assert.match(err.stderr, /guestwifi migrate/);
            return true;
          });
        }
        if (dialect === "sqlite") assert.equal(cdb.exists(), false, "no file was created");
        else {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema()`.execute(cdb.db());
          assert.equal(rows[0].n, 0, "no table was created");
        }
        const { stdout } = await run(process.execPath, [BIN, "migrate"], { env });
        assert.match(stdout, /applied: /);
        const created = await run(process.execPath, [BIN, "account", "create", "--email", "ops@example.com"], { env });
        assert.match(created.stdout, /account \d+ created/);
      } finally {
        await cdb.close();
      }
    });
  });
}

describe("guestwifi's database (relative SQLite path)", () => {
  it("is the same file in the installation's directory from any current directory", async () => {
    const name = `test-artifacts/cli-${randomBytes(5).toString("hex")}.db`;
    const env = { PATH: process.env.PATH, DATABASE_URL: `sqlite:${name}`, LOG_LEVEL: "silent" };
    const elsewhere = mkdtempSync(join(tmpdir(), "guestwifi-cwd-"));
    try {
      await run(process.execPath, [BIN, "migrate"], { env, cwd: elsewhere });
      assert.ok(existsSync(join(ROOT, name)), "created in the installation's directory");
      assert.deepEqual(readdirSync(elsewhere), [], "nothing in the current directory");
      // From yet another directory, the account made by the first start is found.
      await run(process.execPath, [BIN, "account", "create", "--email", "first@example.com"], { env, cwd: elsewhere });
      const child = run(process.execPath, [BIN, "account", "set-password", "--email", "first@example.com"], { env, cwd: "/" });
      child.child.stdin?.end("a-long-enough-password\n");
      assert.match((await child).stdout, /password of first@example.com set/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
      for (const s of ["", "-wal", "-shm"]) rmSync(join(ROOT, name + s), { force: true });
    }
  });
});
