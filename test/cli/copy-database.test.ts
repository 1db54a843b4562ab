/**
 * guestwifi copy-database --to URL: a SQLite database with a demo's history, webhooks, vouchers and a
 * second account arrives whole in an empty PostgreSQL schema (every table's rows, the same ids and
 * sums), the copy's ids continue past the copied ones, the API reads the same figures from both, and
 * a target that is not empty is refused with nothing written.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { type Kysely, sql } from "kysely";
import { foreignKeyOrder } from "../../src/cli/copy-database.js";
import { writeDemo } from "../../src/cli/demo.js";
import { type DB, createDatabase } from "../../src/db/database.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { PG_URL } from "../helpers/db.js";
import { BIN } from "./cli-db.js";

function guestwifi(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 300_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: unknown }).code as number) : 0, stdout, stderr });
    });
  });
}

async function counts(db: Kysely<any>, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(db)).rows[0].n);
  return out;
}

describe("foreign-key order", () => {
  it("puts parents before children and refuses a cycle", () => {
    assert.deepEqual(foreignKeyOrder(["logins", "guests", "accounts", "locations"], [["logins", "guests"], ["logins", "locations"], ["locations", "accounts"], ["guests", "guests"]]), [
      "guests",
      "accounts",
      "locations",
      "logins",
    ]);
    assert.throws(() => foreignKeyOrder(["a", "b"], [["a", "b"], ["b", "a"]]), /cycle/);
  });
});

describe("guestwifi copy-database", () => {
  let t: TestApp;
  let schema: string;
  let target: DB;
  let admin: DB;
  const toUrl = () => `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;

  before(async () => {
    t = await createTestApp("sqlite");
    const loc = (await t.call("POST", "create-or-update-location", locationParams())).body.location_id;
    assert.equal((await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 20, duration: 60 })).statusCode, 200);
    const hook = await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/h", events: "guest.login", location_ids: String(loc) });
    assert.equal(hook.statusCode, 200, JSON.stringify(hook.body));
    const demo = await writeDemo(t.deps, { email: `demo-${Date.now()}@example.com`, days: 10, seed: 7 });
    assert.equal(demo.written, true);
    schema = `copy_${randomBytes(5).toString("hex")}`;
    admin = createDatabase(PG_URL, { poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    target = createDatabase(PG_URL, { searchPath: schema, poolSize: 2 });
  });
  after(async () => {
    await target?.destroy();
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
    await admin?.destroy();
    await t?.close();
  });

  it("copies every table into an empty PostgreSQL database, with progress, and checks counts and totals", async () => {
    const run = await guestwifi(["copy-database", "--to", toUrl()], { DATABASE_URL: t.url });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /copy-database: guests \d+ rows/);
    assert.match(run.stdout, /copied \d+ rows in \d+ tables to PostgreSQL; row counts and \d+ column totals match/);
    // The planner's statistics are there at once, not when autovacuum comes by (never analysed: -1).
    assert.match(run.stdout, /gathering the planner's statistics/);
    const never = await sql<{ relname: string }>`select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind = 'r' and c.relname in ('guests', 'radius_sessions', 'guest_macs', 'daily_usage') and c.reltuples < 0`.execute(target);
    assert.deepEqual(never.rows, []);

    const tables = (
      await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE' and table_name <> 'kysely_migration'`.execute(target)
    ).rows.map((r) => r.name);
    const from = await counts(t.db as Kysely<any>, tables);
    const to = await counts(target as Kysely<any>, tables);
    assert.deepEqual(to, from);
    for (const table of ["accounts", "api_identifiers", "service_secrets", "locations", "devices", "guests", "logins", "daily_usage", "daily_logins", "vouchers", "webhooks"]) {
      assert.ok(from[table] > 0, `the source has ${table} to copy`);
    }
    const bytes = sql`select sum(octets) as b from daily_usage`;
    const [a] = (await bytes.execute(t.db)).rows as Array<{ b: number }>;
    const [b] = (await bytes.execute(target)).rows as Array<{ b: string }>;
    assert.equal(String(b.b), String(a.b));

    // New rows continue after the copied ids.
    const maxLocation = Number((await sql<{ m: number }>`select max(id) as m from locations`.execute(target)).rows[0].m);
    const next = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('locations', 'id')) as id`.execute(target);
    assert.ok(Number(next.rows[0].id) > maxLocation);

    const names = sql`select name from locations order by id`;
    assert.deepEqual((await names.execute(target)).rows, (await names.execute(t.db)).rows);
  });

  it("refuses a target that is not empty, and writes nothing", async () => {
    const before = await counts(target as Kysely<any>, ["accounts", "guests"]);
    const run = await guestwifi(["copy-database", "--to", toUrl()], { DATABASE_URL: t.url });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /the target database is not empty \(rows in .*accounts.*\); copy-database only copies into an empty database, so nothing was written/);
    assert.deepEqual(await counts(target as Kysely<any>, ["accounts", "guests"]), before);
  });

  it("refuses what it cannot copy: no --to, a target that is not PostgreSQL, a source that is", async () => {
    const none = await guestwifi(["copy-database"], { DATABASE_URL: t.url });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--to/);
    const lite = await guestwifi(["copy-database", "--to", "sqlite:/tmp/x.db"], { DATABASE_URL: t.url });
    assert.equal(lite.code, 2);
    assert.match(lite.stderr, /--to must be a PostgreSQL URL/);
    const pg = await guestwifi(["copy-database", "--to", toUrl()], { DATABASE_URL: toUrl() });
    assert.equal(pg.code, 1);
    assert.match(pg.stderr, /copies from SQLite; DATABASE_URL is already a PostgreSQL database/);
  });
});
