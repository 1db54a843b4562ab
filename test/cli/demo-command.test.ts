/**
 * `guestwifi demo` as an operator runs it, in a real process on a real database: a second run does
 * not duplicate anything, and a run killed or interrupted half-way leaves nothing behind.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { DIALECTS } from "../helpers/db.js";
import { BIN, type CliDatabase, cliDatabase, waitForLine } from "./cli-db.js";

const run = promisify(execFile);
const TABLES = ["accounts", "api_identifiers", "locations", "location_options", "campaigns", "devices", "guests", "logins", "daily_logins", "daily_visits", "guest_locations"] as const;

for (const dialect of DIALECTS) {
  describe(`guestwifi demo as a process (${dialect})`, () => {
    let cdb: CliDatabase;
    const env = () => ({ ...process.env, DATABASE_URL: cdb.url, LOG_LEVEL: "silent" });
    before(async () => {
      cdb = await cliDatabase(dialect);
      await run(process.execPath, [BIN, "migrate"], { env: env() });
    });
    after(async () => cdb.close());

    /** Rows per table: what a run must leave untouched when it does not complete. */
    async function rowCounts(): Promise<Record<string, number>> {
      const out: Record<string, number> = {};
      for (const t of TABLES) {
        const r = await cdb.db().selectFrom(t).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
        out[t] = Number(r.n);
      }
      return out;
    }

    async function accountRows(email: string) {
      const db = cdb.db();
      const account = await db.selectFrom("accounts").select("id").where("email", "=", email).executeTakeFirst();
      if (!account) return undefined;
      const count = async (table: "locations" | "campaigns" | "devices" | "guests" | "logins") =>
        Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("account_id", "=", account.id).executeTakeFirstOrThrow()).n);
      return { locations: await count("locations"), campaigns: await count("campaigns"), devices: await count("devices"), guests: await count("guests"), logins: await count("logins") };
    }

    const exitOf = (child: ChildProcess) => new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

    it("leaves nothing written when killed (SIGKILL) or interrupted (SIGINT) half-way", async () => {
      const before = await rowCounts();
      const killed = spawn(process.execPath, [BIN, "demo", "--email", "cut@example.com", "--days", "60", "--seed", "5"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
      const killedExit = exitOf(killed);
      await waitForLine(killed, /created 4 locations/);
      killed.kill("SIGKILL");
      assert.equal((await killedExit).signal, "SIGKILL");
      assert.deepEqual(await rowCounts(), before, "after SIGKILL");

      const stopped = spawn(process.execPath, [BIN, "demo", "--email", "cut@example.com", "--days", "60", "--seed", "5"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      stopped.stderr!.on("data", (c: Buffer) => {
        stderr += c.toString();
      });
      const stoppedExit = exitOf(stopped);
      await waitForLine(stopped, /\d+%: \d+ logins/);
      stopped.kill("SIGINT");
      assert.deepEqual(await stoppedExit, { code: 130, signal: null });
      assert.match(stderr, /guestwifi demo: interrupted; nothing was written\./);
      assert.deepEqual(await rowCounts(), before, "after SIGINT");

      // The next run starts from nothing and completes.
      const { stdout } = await run(process.execPath, [BIN, "demo", "--email", "cut@example.com", "--days", "2", "--seed", "5"], { env: env() });
      assert.match(stdout, /created account cut@example\.com; identifier: [A-Za-z0-9_-]{43}/);
      assert.deepEqual(await accountRows("cut@example.com").then((r) => [r?.locations, r?.campaigns]), [4, 4]);
    });

    it("leaves the same venues and activity when run again for the same account", async () => {
      const args = [BIN, "demo", "--email", "twice@example.com", "--days", "2", "--seed", "7"];
      const first = await run(process.execPath, args, { env: env() });
      assert.match(first.stdout, /demo data written: \{"locations":4,/);
      const afterFirst = await accountRows("twice@example.com");
      assert.ok(afterFirst && afterFirst.logins > 0);
      const all = await rowCounts();
      const second = await run(process.execPath, args, { env: env() });
      assert.match(second.stdout, /twice@example\.com already has the demo venues \(4\); nothing was written\./);
      assert.doesNotMatch(second.stdout, /identifier/, "no identifier is printed again");
      assert.deepEqual(await accountRows("twice@example.com"), afterFirst);
      const third = await run(process.execPath, [BIN, "demo", "--email", "twice@example.com", "--days", "5", "--seed", "8"], { env: env() });
      assert.match(third.stdout, /nothing was written/, "another seed or period does not add a second set either");
      assert.deepEqual(await rowCounts(), all);
    });
  });
}
