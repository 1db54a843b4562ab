/** The guestwifi command as an operator runs it: a real process, a real database, real signals. */
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { verifyOwnerPassword } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";
import { DIALECTS } from "../helpers/db.js";
import { BIN, type CliDatabase, cliDatabase, waitForLine } from "./cli-db.js";

const run = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`guestwifi command (${dialect})`, () => {
    let cdb: CliDatabase;
    let url: string;
    before(async () => {
      cdb = await cliDatabase(dialect);
      url = cdb.url;
    });
    after(async () => cdb.close());

    const env = () => ({ ...process.env, DATABASE_URL: url, LOG_LEVEL: "silent", RADIUS_ENABLED: "false" });

    it("migrates, then says the database is up to date", async () => {
      const first = await run(process.execPath, [BIN, "migrate"], { env: env() });
      assert.match(first.stdout, /applied: .*baseline/);
      const second = await run(process.execPath, [BIN, "migrate"], { env: env() });
      assert.match(second.stdout, /up to date/);
    });

    it("creates an account and prints its identifier as JSON", async () => {
      const { stdout } = await run(process.execPath, [BIN, "account", "create", "--email", `ops-${dialect}@example.com`, "--json"], { env: env() });
      const out = JSON.parse(stdout);
      assert.equal(typeof out.account_id, "number");
      assert.match(out.identifier, /^[A-Za-z0-9_-]{43}$/);
      await assert.rejects(
        run(process.execPath, [BIN, "account", "create", "--email", `ops-${dialect}@example.com`], { env: env() }),
        (err: { stderr: string; code: number }) => err.code === 1 && /already exists/.test(err.stderr),
      );
    });

    /** The command with `input` on its standard input: exit code, stdout, stderr. */
    const withInput = (args: string[], input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], { env: env(), stdio: ["pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      });

    it("sets an owner's password at creation and resets it from standard input; refuses short ones and unknown e-mails", async () => {
      const email = `pw-${dialect}@example.com`;
      const created = await withInput(["account", "create", "--email", email, "--password-stdin", "--json"], "first password\n");
      assert.equal(created.code, 0, created.stderr);
      const { account_id } = JSON.parse(created.stdout);
      const ctx = { db: cdb.db(), repos: createRepositories() };
      assert.deepEqual(await verifyOwnerPassword(ctx, email, "first password"), { accountId: account_id });
      // The trailing newline is not part of the password.
      assert.equal(await verifyOwnerPassword(ctx, email, "first password\n"), undefined);

      const reset = await withInput(["account", "set-password", "--email", email], "second password\r\n");
      assert.equal(reset.code, 0, reset.stderr);
      assert.match(reset.stdout, /password of .* set/);
      assert.equal(await verifyOwnerPassword(ctx, email, "first password"), undefined);
      assert.deepEqual(await verifyOwnerPassword(ctx, email, "second password"), { accountId: account_id });

      for (const [input, why] of [["", /empty/], ["\n", /empty/], ["short\n", /at least 10 characters/], ["two\nlines here\n", /one line/]] as const) {
        const refused = await withInput(["account", "set-password", "--email", email], input);
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, why);
        assert.match(refused.stderr, /Usage: guestwifi account set-password/);
      }
      assert.deepEqual(await verifyOwnerPassword(ctx, email, "second password"), { accountId: account_id });
      const short = await withInput(["account", "create", "--email", `short-${dialect}@example.com`, "--password-stdin"], "short\n");
      assert.equal(short.code, 2);
      assert.match(short.stderr, /at least 10 characters/);
      const unknown = await withInput(["account", "set-password", "--email", `nobody-${dialect}@example.com`], "long enough password\n");
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No account has the e-mail nobody-/);
    });

    it("refuses unknown commands and bad flags with a usage message", async () => {
      await assert.rejects(run(process.execPath, [BIN, "frobnicate"], { env: env() }), (err: { stderr: string }) =>
        /unknown command/.test(err.stderr) && /Usage:/.test(err.stderr),
      );
      await assert.rejects(run(process.execPath, [BIN, "account", "create"], { env: env() }), (err: { stderr: string }) => /--email/.test(err.stderr));
      await assert.rejects(run(process.execPath, [BIN, "migrate"], { env: { ...env(), PORT: "http" } }), (err: { stderr: string }) => /PORT must be an integer/.test(err.stderr));
    });

    it("serves, answers /healthz with a usable identifier, and stops cleanly on SIGTERM", async () => {
      const child = spawn(process.execPath, [BIN, "serve"], { env: { ...env(), PORT: "0", HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"] });
      try {
        const [, port] = await waitForLine(child, /serving http:\/\/127\.0\.0\.1:(\d+)/);
        const health = await fetch(`http://127.0.0.1:${port}/healthz`);
        assert.equal(health.status, 200);
        const { stdout } = await run(process.execPath, [BIN, "account", "create", "--email", `serve-${dialect}@example.com`, "--json"], { env: env() });
        const { identifier } = JSON.parse(stdout);
        const list = await fetch(`http://127.0.0.1:${port}/api/location-list`, { headers: { identifier } });
        assert.equal(list.status, 200);
        assert.deepEqual(await list.json(), { status: "success", data: [] });
        const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
        // No stopwatch: close-with-grace exits 0 only when stop() finished within the service's own
        // 10 s limit; past it, it says "killed by timeout" and exits 1.
        let output = "";
        child.stdout!.on("data", (d) => (output += d));
        child.stderr!.on("data", (d) => (output += d));
        child.kill("SIGTERM");
        assert.equal(await exited, 0, output);
        assert.doesNotMatch(output, /killed by timeout/);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    });
  });
}

describe("first start on an empty database", () => {
  it("creates an account and prints its identifier once", async () => {
    const file = join(tmpdir(), `guestwifi-first-${randomBytes(5).toString("hex")}.db`);
    const env = { ...process.env, DATABASE_URL: `sqlite:${file}`, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", RADIUS_ENABLED: "false" };
    try {
      for (const expectIdentifier of [true, false]) {
        const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout!.on("data", (c: Buffer) => {
          out += c.toString();
        });
        const [, port] = await waitForLine(child, /serving http:\/\/127\.0\.0\.1:(\d+)/);
        const m = out.match(/identifier \(shown once, store it now\): ([A-Za-z0-9_-]+)/);
        assert.equal(Boolean(m), expectIdentifier, out);
        assert.equal(/guestwifi account set-password --email admin@localhost/.test(out), expectIdentifier, out);
        if (m) {
          const res = await fetch(`http://127.0.0.1:${port}/api/location-list`, { headers: { identifier: m[1] } });
          assert.equal(res.status, 200);
        }
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    } finally {
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  });
});
