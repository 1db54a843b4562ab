/**
 * guestwifi backup FILE: a copy of the SQLite database that opens on its own with every row, taken
 * while the service writes; an existing FILE is kept unless --force; large databases report their
 * progress; PostgreSQL is pointed to pg_dump.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { backupSqlite } from "../../src/cli/backup-command.js";
import { locationParams } from "../helpers/app.js";
import { PG_URL } from "../helpers/db.js";
import { startServiceProcess } from "../helpers/service-process.js";
import { BIN } from "./cli-db.js";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function guestwifi(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: unknown }).code as number) : 0, stdout, stderr });
    });
  });
}

const dir = join(tmpdir(), `guestwifi-backup-${randomBytes(5).toString("hex")}`);
const path = (name: string) => join(dir, name);

describe("guestwifi backup", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("copies a running service's database while it writes; the copy opens alone with every committed row", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    const source = path("live.db");
    const service = await startServiceProcess({ DATABASE_URL: `sqlite:${source}`, LOG_LEVEL: "warn" });
    try {
      const create = (i: number) =>
        fetch(`${service.httpUrl}/api/create-or-update-location`, {
          method: "POST",
          headers: { "content-type": "application/json", identifier: service.identifier },
          body: JSON.stringify(locationParams({ location_name: `Venue ${i}` })),
        });
      for (let i = 0; i < 20; i++) assert.equal((await create(i)).status, 200);
      // Writes keep coming while the backup runs.
      let writing = true;
      let written = 20;
      const writer = (async () => {
        while (writing) if ((await create(written)).status === 200) written++;
      })();
      const run = await guestwifi(["backup", path("copy.db")], { DATABASE_URL: `sqlite:${source}` });
      writing = false;
      await writer;
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^backed up ${source.replaceAll(".", "\\.")} to ${path("copy.db").replaceAll(".", "\\.")} \\(\\d+ pages, [\\d.]+ MB, [\\d.]+ s\\)\\n$`));
      const copy = new SQLite(path("copy.db"), { readonly: true });
      try {
        const n = (copy.prepare("select count(*) as n from locations").get() as { n: number }).n;
        assert.ok(n >= 20 && n <= written, `${n} locations in the copy, ${written} written`);
        assert.equal(copy.pragma("integrity_check", { simple: true }), "ok");
        assert.equal(copy.pragma("journal_mode", { simple: true }), "delete", "a file of its own, no WAL to carry along");
      } finally {
        copy.close();
      }
      assert.ok(!existsSync(path("copy.db-wal")));
      assert.deepEqual(readdirSync(dir).filter((f) => f.includes("partial")), [], "no temporary file left");
    } finally {
      await service.stop();
    }
  });

  it("keeps an existing FILE unless --force, and replaces it with --force", async () => {
    const source = path("live.db");
    writeFileSync(path("precious.db"), "do not overwrite");
    const refused = await guestwifi(["backup", path("precious.db")], { DATABASE_URL: `sqlite:${source}` });
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `guestwifi: ${path("precious.db")} already exists; use --force to replace it\n`);
    const forced = await guestwifi(["backup", path("precious.db"), "--force"], { DATABASE_URL: `sqlite:${source}` });
    assert.equal(forced.code, 0, forced.stderr);
    const copy = new SQLite(path("precious.db"), { readonly: true });
    assert.ok((copy.prepare("select count(*) as n from locations").get() as { n: number }).n >= 20);
    copy.close();
    const itself = await guestwifi(["backup", source, "--force"], { DATABASE_URL: `sqlite:${source}` });
    assert.equal(itself.code, 1);
    assert.match(itself.stderr, /FILE is the database itself/);
    const missing = await guestwifi(["backup", path("x.db")], { DATABASE_URL: `sqlite:${path("none.db")}` });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /there is no database at .*none\.db \(DATABASE_URL\)/);
    assert.ok(!existsSync(path("none.db")), "a missing database is not created");
  });

  it("points PostgreSQL to pg_dump", async () => {
    const r = await guestwifi(["backup", path("pg.db")], { DATABASE_URL: PG_URL });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^guestwifi: backup copies SQLite databases; this DATABASE_URL is PostgreSQL: back it up with pg_dump, e\.g\. pg_dump --format=custom/);
    assert.ok(!existsSync(path("pg.db")));
  });

  it("reports the progress of a large database, in steps of 10 %", async () => {
    const big = path("big.db");
    const db = new SQLite(big);
    db.exec("create table blobs (b blob)");
    // 30,000 pages of 4 KiB: past the size from which progress is reported.
    for (let i = 0; i < 12; i++) db.prepare("insert into blobs values (zeroblob(10000000))").run();
    db.close();
    const seen: number[] = [];
    const done = await backupSqlite(big, path("big-copy.db"), { force: false, progress: (percent) => seen.push(percent) });
    assert.ok(done.pages >= 25_000, `${done.pages} pages`);
    assert.deepEqual(seen, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const copy = new SQLite(path("big-copy.db"), { readonly: true });
    assert.equal((copy.prepare("select count(*) as n from blobs").get() as { n: number }).n, 12);
    copy.close();
  });
});
