/**
 * The guestwifi command's help and its refusals: every command explains itself with --help, and
 * unknown options, missing values and stray arguments end with a clear message and exit code 2,
 * before any database is touched, never with a stack trace.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BIN } from "./cli-db.js";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command on a SQLite file that does not exist yet; reports whether the run created it. */
function guestwifi(args: string[], env: Record<string, string> = {}): Promise<Outcome & { touchedDb: boolean }> {
  const file = join(tmpdir(), `guestwifi-usage-${randomBytes(5).toString("hex")}.db`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: "silent", RADIUS_ENABLED: "false", PORT: "0", ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: unknown }).code as number) : 0;
        const touchedDb = existsSync(file);
        for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
        resolve({ code, stdout, stderr, touchedDb });
      },
    );
  });
}

const STACK = /\n\s+at\s/;
const COMMANDS = ["serve", "migrate", "account create", "backup", "demo"];

describe("guestwifi help", () => {
  it("prints the usage of every command for --help, -h, help and no command", async () => {
    for (const args of [["--help"], ["-h"], ["help"], []]) {
      const r = await guestwifi(args);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stdout, /^Usage: guestwifi <command>/);
      for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`\\n  ${c} `), `${args.join(" ")} lists ${c}`);
      assert.equal(r.touchedDb, false);
    }
  });

  it("prints each command's own help for `<command> --help` and `help <command>`, and runs nothing", async () => {
    for (const c of COMMANDS) {
      const words = c.split(" ");
      const a = await guestwifi([...words, "--help"]);
      const b = await guestwifi(["help", ...words]);
      const h = await guestwifi([...words, "-h"]);
      assert.equal(a.code, 0, a.stderr);
      assert.match(a.stdout, new RegExp(`^Usage: guestwifi ${c}\\b`));
      assert.match(a.stdout, /-h, --help/);
      assert.equal(b.stdout, a.stdout, `help ${c}`);
      assert.equal(h.stdout, a.stdout, `${c} -h`);
      assert.equal(a.touchedDb || b.touchedDb || h.touchedDb, false, `${c} --help opened the database`);
    }
    const demo = await guestwifi(["demo", "--help"]);
    for (const option of ["--email E", "--days N", "--seed N"]) assert.ok(demo.stdout.includes(option), option);
    assert.match(demo.stdout, /one transaction/);
    const account = await guestwifi(["account", "--help"]);
    assert.equal(account.code, 0);
    assert.match(account.stdout, /account create --email E/);
  });
});

describe("guestwifi refusals", () => {
  const cases: { args: string[]; message: RegExp }[] = [
    { args: ["demo", "--frobnicate"], message: /^guestwifi demo: unknown option --frobnicate\n/ },
    { args: ["demo", "-x"], message: /unknown option -x/ },
    { args: ["demo", "--days"], message: /--days needs a value/ },
    { args: ["demo", "--days", "--seed", "3"], message: /--days needs a value/ },
    { args: ["demo", "--days", "ninety"], message: /--days must be a whole number from 1 to 365/ },
    { args: ["demo", "--days=0"], message: /--days must be a whole number from 1 to 365/ },
    { args: ["demo", "--seed", "1.5"], message: /--seed must be a whole number/ },
    { args: ["demo", "--email", "not-an-email"], message: /--email must be an e-mail address/ },
    { args: ["demo", "--days", "3", "--days", "4"], message: /--days is given more than once/ },
    { args: ["demo", "now"], message: /unexpected argument "now"/ },
    { args: ["account"], message: /account needs a subcommand: create/ },
    { args: ["account", "delete"], message: /unknown subcommand "account delete"/ },
    { args: ["account", "create"], message: /^guestwifi account create: --email is required\n/ },
    { args: ["account", "create", "--email"], message: /--email needs a value/ },
    { args: ["account", "create", "--email", "--json"], message: /--email needs a value/ },
    { args: ["account", "create", "--email", "ops@example.com", "--json=yes"], message: /--json takes no value/ },
    { args: ["account", "create", "--email", "ops@example.com", "--verbose"], message: /unknown option --verbose/ },
    { args: ["migrate", "--force"], message: /^guestwifi migrate: unknown option --force\n/ },
    { args: ["migrate", "now"], message: /unexpected argument "now"/ },
    { args: ["serve", "--port", "80"], message: /unknown option --port/ },
    { args: ["backup"], message: /^guestwifi backup: FILE is required\n/ },
    { args: ["backup", "a.db", "b.db"], message: /unexpected argument "b.db"/ },
    { args: ["backup", "a.db", "--force=yes"], message: /--force takes no value/ },
    { args: ["serve", "--radius-only", "--no-radius"], message: /--radius-only and --no-radius cannot be used together/ },
    { args: ["frobnicate"], message: /^guestwifi: unknown command "frobnicate"\n/ },
    { args: ["help", "frobnicate"], message: /unknown command "frobnicate"/ },
  ];

  it("ends with a clear message, the command's usage and exit code 2, before touching the database", async () => {
    for (let i = 0; i < cases.length; i += 4) {
      const batch = cases.slice(i, i + 4);
      const outcomes = await Promise.all(batch.map((c) => guestwifi(c.args)));
      batch.forEach((c, j) => {
        const r = outcomes[j];
        const what = c.args.join(" ");
        assert.equal(r.code, 2, `${what}: exit ${r.code}, stderr ${r.stderr}`);
        assert.match(r.stderr, c.message, what);
        assert.match(r.stderr, /Usage: guestwifi/, `${what} shows the usage`);
        assert.doesNotMatch(r.stderr, STACK, `${what} printed a stack trace`);
        assert.equal(r.stdout, "", `${what} printed to stdout`);
        assert.equal(r.touchedDb, false, `${what} opened the database`);
      });
    }
  });

  it("reports a bad configuration or an unreachable database in one line, exit code 1", async () => {
    const badPort = await guestwifi(["migrate"], { PORT: "http" });
    assert.equal(badPort.code, 1);
    assert.equal(badPort.stderr, 'guestwifi: PORT must be an integer, got "http"\n');
    const noDb = await guestwifi(["migrate"], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    assert.equal(noDb.code, 1);
    assert.match(noDb.stderr, /^guestwifi: .*ECONNREFUSED.*\n$/);
    assert.doesNotMatch(noDb.stderr, STACK);
  });
});
