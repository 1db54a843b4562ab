/**
 * guestwifi backup FILE: a consistent copy of the SQLite database while the service runs (SQLite's
 * online backup, through better-sqlite3), written beside FILE under a temporary name, checked, and
 * only then renamed to FILE, so a backup that fails half-way never leaves a half file where a good
 * one is expected. PostgreSQL is backed up with its own tools (pg_dump): docs/operations.md.
 */
import { randomBytes } from "node:crypto";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { loadConfig } from "../config.js";
import { type Command, type CommandSpec, UsageError, commandHelp } from "./command-line.js";

const spec: CommandSpec = {
  name: "backup",
  summary: "copy the SQLite database to FILE while the service runs",
  description:
    "Copies the SQLite database of DATABASE_URL to FILE with SQLite's online backup: consistent, and the\n" +
    "service keeps running. Refuses to overwrite FILE unless --force. For PostgreSQL use pg_dump\n" +
    "(docs/operations.md).",
  args: [{ name: "FILE", help: "where the copy goes (a new file)" }],
  options: { force: { help: "replace FILE if it exists" } },
};

/**
 * Databases at least this large (pages of 4 KiB: 100 MB) are copied in ten steps, reporting their
 * progress between them; smaller ones in one. A write by the running service between two steps
 * makes SQLite start the copy over; should that happen, the rest is copied in one step (a read
 * transaction: in WAL mode the service keeps writing meanwhile), so a busy service never keeps a
 * backup from finishing.
 */
const PROGRESS_FROM_PAGES = 25_000;

export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  pages: number;
  bytes: number;
}

/**
 * Backs the SQLite file `source` up to `target`. `progress` hears the percentage done, for large
 * databases, at most once per 10 %.
 */
export async function backupSqlite(source: string, target: string, opts: { force: boolean; progress?: (percent: number, pages: number) => void }): Promise<BackupResult> {
  const to = resolve(target);
  if (resolve(source) === to) throw new BackupError("FILE is the database itself; choose another file");
  if (!existsSync(source)) throw new BackupError(`there is no database at ${source} (DATABASE_URL)`);
  if (existsSync(to)) {
    if (!opts.force) throw new BackupError(`${target} already exists; use --force to replace it`);
    if (!statSync(to).isFile()) throw new BackupError(`${target} is not a file`);
  }
  if (!existsSync(dirname(to))) throw new BackupError(`the directory ${dirname(to)} does not exist`);
  const partial = join(dirname(to), `.${basename(to)}.partial-${randomBytes(4).toString("hex")}`);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    let reported = -1;
    let lastRemaining = Number.POSITIVE_INFINITY;
    let restarted = false;
    const result = await db.backup(partial, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages > lastRemaining) restarted = true;
        lastRemaining = remainingPages;
        if (restarted || totalPages < PROGRESS_FROM_PAGES) return totalPages;
        const percent = Math.floor(((totalPages - remainingPages) / totalPages) * 10) * 10;
        if (percent > reported) {
          reported = percent;
          opts.progress?.(percent, totalPages);
        }
        return Math.ceil(totalPages / 10);
      },
    });
    const copy = new SQLite(partial, { fileMustExist: true });
    try {
      const check = copy.pragma("quick_check", { simple: true });
      if (check !== "ok") throw new BackupError(`the copy does not check out (${String(check)}); nothing was written to ${target}`);
      // A file of its own: no WAL beside it to forget when it is moved.
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    renameSync(partial, to);
    return { file: to, pages: result.totalPages, bytes: statSync(to).size };
  } catch (err) {
    for (const s of ["", "-wal", "-shm", "-journal"]) rmSync(partial + s, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

export const backupCommand: Command = {
  spec,
  async run(flags) {
    const config = loadConfig();
    if (!config.databaseUrl.startsWith("sqlite:")) {
      throw new BackupError(
        "backup copies SQLite databases; this DATABASE_URL is PostgreSQL: back it up with pg_dump, e.g. " +
          'pg_dump --format=custom --file=guestwifi.dump "$DATABASE_URL" (see docs/operations.md)',
      );
    }
    const source = config.databaseUrl.slice("sqlite:".length);
    if (source === "" || source === ":memory:") throw new UsageError("an in-memory database cannot be backed up", commandHelp(spec), spec.name);
    const file = String(flags.file);
    const started = Date.now();
    const done = await backupSqlite(source, file, {
      force: flags.force === true,
      progress: (percent, pages) => process.stdout.write(`backup: ${percent}% of ${pages} pages\n`),
    });
    const mb = (done.bytes / 1_048_576).toFixed(1);
    process.stdout.write(`backed up ${source} to ${done.file} (${done.pages} pages, ${mb} MB, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  },
};
