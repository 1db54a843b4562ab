/**
 * SQLite's planner statistics (src/db/sqlite-connection.ts): SQLite gathers none by itself, and
 * without them it planned the API's session-list over several locations as "every open session of
 * those locations, then sorted". A file database gathers them when it opens and again after
 * OPTIMIZE_EVERY_WRITES writes; the plan of a session-list-shaped query then walks sessions in id
 * order. On a real database file. SQLite only: PostgreSQL's autovacuum does this there.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { type DB, createDatabase } from "../../src/db/database.js";
import { OPTIMIZE_EVERY_WRITES } from "../../src/db/sqlite-connection.js";
import { DIALECTS } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";

/** Open sessions over 100 locations, as radius_sessions holds them (its two partial indexes). */
async function createSessions(db: DB): Promise<void> {
  await sql`create table sessions (id integer primary key, location_id integer not null, updated_at text not null, stopped_at text)`.execute(db);
  await sql`create index sessions_open on sessions (location_id, id) where stopped_at is null`.execute(db);
  await sql`create index sessions_open_id on sessions (id) where stopped_at is null`.execute(db);
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
    insert into sessions (id, location_id, updated_at, stopped_at) select i, 1 + i % 100, '2026-11-28 03:00:00', null from n`.execute(db);
}

/** The shape of session-list's page: ten locations, heard recently, in id order. */
async function sessionListPlan(db: DB): Promise<string> {
  const rows = await sql<{ detail: string }>`explain query plan select id from sessions
    where location_id in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) and stopped_at is null and updated_at >= '2026-11-28 02:00:00' and id > 0
    order by id limit 1001`.execute(db);
  return rows.rows.map((r) => r.detail).join(" | ");
}

async function statisticsOf(db: DB, table: string): Promise<string[]> {
  const known = await sql<{ n: number }>`select count(*) as n from sqlite_schema where name = 'sqlite_stat1'`.execute(db);
  if (Number(known.rows[0].n) === 0) return [];
  const rows = await sql<{ idx: string | null }>`select idx from sqlite_stat1 where tbl = ${table}`.execute(db);
  return rows.rows.map((r) => r.idx ?? "(table)").sort();
}

describe("SQLite gathers its planner's statistics", { skip: !DIALECTS.includes("sqlite") }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "guestwifi-statistics-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("when a database file opens: a session-list page no longer reads and sorts every open session of its locations", async () => {
    const url = `sqlite:${join(dir, "open.sqlite")}`;
    const first = createDatabase(url);
    try {
      await createSessions(first);
      assert.deepEqual(await statisticsOf(first, "sessions"), [], "no statistics yet");
      assert.match(await sessionListPlan(first), /TEMP B-TREE FOR ORDER BY/, "without statistics the planner sorts every open session of the locations");
    } finally {
      await first.destroy();
    }
    const reopened = createDatabase(url);
    try {
      assert.deepEqual(await statisticsOf(reopened, "sessions"), ["(table)", "sessions_open", "sessions_open_id"]);
      const plan = await sessionListPlan(reopened);
      assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
    } finally {
      await reopened.destroy();
    }
  });

  it(`again after ${OPTIMIZE_EVERY_WRITES.toLocaleString("en")} writes, for tables that grew while it was open`, async () => {
    const db = createDatabase(`sqlite:${join(dir, "grown.sqlite")}`);
    try {
      await createSessions(db);
      assert.match(await sessionListPlan(db), /TEMP B-TREE FOR ORDER BY/);
      await sql`select count(*) from sessions where location_id = 1 and stopped_at is null`.execute(db);
      for (let i = 1; i < OPTIMIZE_EVERY_WRITES; i++) await sql`update sessions set updated_at = '2026-11-28 03:00:01' where id = ${i}`.execute(db);
      assert.deepEqual(await statisticsOf(db, "sessions"), [], "not before that many writes");
      await sql`update sessions set updated_at = '2026-11-28 03:00:01' where id = ${OPTIMIZE_EVERY_WRITES}`.execute(db);
      await waitUntil("statistics gathered", async () => (await statisticsOf(db, "sessions")).length === 3);
      const plan = await sessionListPlan(db);
      assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
    } finally {
      await db.destroy();
    }
  });
});
