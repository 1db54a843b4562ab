/** A database for `guestwifi` child processes: a SQLite file, or a PostgreSQL schema named in the URL. */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { type DB, createDatabase } from "../../src/db/database.js";
import { type Dialect, PG_URL } from "../helpers/db.js";

export const BIN = join(process.cwd(), "bin/guestwifi.js");

export interface CliDatabase {
  /** DATABASE_URL for the child. */
  url: string;
  /** A connection of the test's own, opened on first use, to look at what the child wrote. */
  db(): DB;
  /** SQLite only: whether the file exists (a command that refused its arguments must not create it). */
  exists(): boolean;
  close(): Promise<void>;
}

export async function cliDatabase(dialect: Dialect): Promise<CliDatabase> {
  const tag = randomBytes(5).toString("hex");
  let own: DB | undefined;
  if (dialect === "sqlite") {
    const file = join(tmpdir(), `guestwifi-cli-${tag}.db`);
    const url = `sqlite:${file}`;
    return {
      url,
      db: () => {
        own ??= createDatabase(url);
        return own;
      },
      exists: () => existsSync(file),
      async close() {
        await own?.destroy();
        for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
      },
    };
  }
  const schema = `cli_${tag}`;
  const admin = createDatabase(PG_URL, { poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  return {
    url: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    db: () => {
      own ??= createDatabase(PG_URL, { searchPath: schema, poolSize: 2 });
      return own;
    },
    exists: () => true,
    async close() {
      await own?.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    },
  };
}

/**
 * Resolves with the first match of `re` in the child's stdout; rejects on timeout or exit. On timeout
 * the child is killed, so that a failed wait leaves no process holding the database for the next test.
 */
export function waitForLine(child: ChildProcess, re: RegExp, ms = 120_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no line matching ${re} in ${ms} ms; got:\n${seen}`));
    }, ms);
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const m = seen.match(re);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before ${re}; got:\n${seen}`)));
  });
}
