import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { sql } from "kysely";
import pg from "pg";
import { CATALOGUE_CHANNEL } from "../../src/db/change-watch.js";
import { catalogueListenerPid, changeGeneration, createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { ReadCache } from "../../src/db/read-cache.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";
import { createTestDb } from "../helpers/db.js";
import { waitUntil } from "../helpers/wait.js";

const loc = (accountId: number, name: string) => ({
  account_id: accountId, name, address1: "a", town: "t", state: "s", zipcode: "z", country: "US",
  phone_number: "(111)222-3333", timezone: "Europe/London", portal_slug: randomBytes(6).toString("hex"),
  date_created: "2026-01-01 00:00:00", last_modified: "2026-01-01 00:00:00", deleted: 0,
});

describe("read cache of location rows (SQLite)", () => {
  it("sees this process's writes at once and another connection's commits within the poll interval", async () => {
    const file = join(tmpdir(), `guestwifi-cache-${randomBytes(5).toString("hex")}.db`);
    const a = createDatabase(`sqlite:${file}`);
    const b = createDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(a);
      const repos = createRepositories();
      const locationRepository = repos.locations;
      const { accountId } = await createAccount({ db: a, repos }, "cache@example.com");
      const id = await locationRepository.insert(a, loc(accountId, "Before"));
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Before");
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Before");
      await locationRepository.update(a, id, { name: "Own write" });
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Own write");
      const g = changeGeneration(a);
      await locationRepository.update(b, id, { name: "Other connection" });
      // Seen within OTHER_CONNECTION_POLL_MS: wait for that event rather than for a time.
      await waitUntil("the other connection's write seen", () => changeGeneration(a) !== g, 30_000);
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Other connection");
      const other = await createAccount({ db: a, repos }, "cache2@example.com");
      assert.deepEqual(await locationRepository.findOwned(a, other.accountId, [id]), [], "never another account's row");
    } finally {
      await a.destroy();
      await b.destroy();
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  });

  it("serves a kept row without reading again until anything is written", async () => {
    const file = join(tmpdir(), `guestwifi-cache-${randomBytes(5).toString("hex")}.db`);
    const db = createDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(db);
      const ctx = { db, repos: createRepositories() };
      const cache = new ReadCache<string, { n: number }>(2);
      let reads = 0;
      const read = async () => ({ n: ++reads });
      assert.equal(cache.get(db, "a"), undefined);
      assert.deepEqual(await cache.load(db, "a", read), { n: 1 });
      assert.deepEqual(cache.get(db, "a"), { n: 1 }, "served from memory");
      assert.deepEqual(cache.getAll(db, ["a"]), [{ n: 1 }]);
      await cache.load(db, "b", read);
      await cache.load(db, "c", read);
      assert.equal(cache.get(db, "a"), undefined, "the oldest row made room");
      assert.deepEqual(cache.getAll(db, ["b", "c"]), [{ n: 2 }, { n: 3 }]);
      await createAccount(ctx, "cache3@example.com");
      assert.equal(cache.get(db, "b"), undefined, "a write empties it");
      // A read that a write overtook is not kept: it may have seen the rows before the write.
      await cache.load(db, "d", async () => {
        await createAccount(ctx, "cache4@example.com");
        return { n: 99 };
      });
      assert.equal(cache.get(db, "d"), undefined);
      assert.equal(reads, 3);
    } finally {
      await db.destroy();
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  });

  it("keeps catalogue rows across writes to other tables (logins), not across catalogue writes", async () => {
    const file = join(tmpdir(), `guestwifi-cache-${randomBytes(5).toString("hex")}.db`);
    const db = createDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(db);
      const repos = createRepositories();
      const { accountId } = await createAccount({ db, repos }, "catalogue@example.com");
      const id = await repos.locations.insert(db, loc(accountId, "Kept"));
      const any = changeGeneration(db);
      const catalogue = changeGeneration(db, true);
      await db.insertInto("rate_limit_hits").values({ key: "k", window_start: 1, hits: 1 }).execute();
      assert.notEqual(changeGeneration(db), any, "any write moves the plain token");
      assert.equal(changeGeneration(db, true), catalogue, "a write elsewhere leaves the catalogue's");
      await repos.devices.markHeard(db, 12345, "2026-01-01 00:00:00"); // last_heard_at alone: not a change
      assert.equal(changeGeneration(db, true), catalogue, "marking an AP heard from leaves it");
      await repos.devices.assignLocation(db, 12345, null, "2026-01-01 00:00:00");
      assert.notEqual(changeGeneration(db, true), catalogue, "a catalogue write moves it");
      const again = changeGeneration(db, true);
      await repos.locations.update(db, id, { name: "Renamed" });
      assert.notEqual(changeGeneration(db, true), again);
      assert.equal((await repos.locations.findOwned(db, accountId, [id]))[0].name, "Renamed");
    } finally {
      await db.destroy();
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  });

  it("caches nothing on PostgreSQL unless the rows are catalogue rows", async () => {
    const pg = await createTestDb("postgres");
    try {
      assert.equal(changeGeneration(pg.db), undefined);
      assert.equal(changeGeneration(pg.db, true), undefined, "not before its instance listens");
      await waitUntil("listening", () => changeGeneration(pg.db, true) !== undefined);
      assert.equal(changeGeneration(pg.db), undefined, "other rows: still nothing");
    } finally {
      await pg.close();
    }
  });
});

describe("read cache of location rows on PostgreSQL, two instances", () => {
  it("serves B's rows from memory until A (or anyone) writes, and B sees A's write right after", async () => {
    const tdb = await createTestDb("postgres");
    const a = tdb.db;
    const b = createDatabase(tdb.url, { searchPath: tdb.schema, poolSize: 3 });
    const sneak = createDatabase(tdb.url, { searchPath: tdb.schema, poolSize: 1 });
    try {
      const reposA = createRepositories();
      const reposB = createRepositories();
      const { accountId } = await createAccount({ db: a, repos: reposA }, "pgcache@example.com");
      const id = await reposA.locations.insert(a, loc(accountId, "Before"));
      const nameOnB = async () => (await reposB.locations.findOwned(b, accountId, [id]))[0].name;
      await waitUntil("B listening", () => changeGeneration(b, true) !== undefined);
      assert.equal(await nameOnB(), "Before");
      // A write that announces nothing (triggers off for this session) shows the row is B's memory.
      await sneak.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx);
        await trx.updateTable("locations").set({ name: "Unannounced" }).where("id", "=", id).execute();
      });
      assert.equal(await nameOnB(), "Before", "served from B's memory");
      // Marking an AP heard from (last_heard_at alone) announces nothing and drops nothing.
      // Proven by what is announced, not by a pause: a listener of the test's own sees every
      // announcement in commit order, so one sent after markHeard arrives after any markHeard caused.
      const kept = changeGeneration(b, true);
      const heard: string[] = [];
      const listener = new pg.Client({ connectionString: tdb.url });
      await listener.connect();
      try {
        listener.on("notification", (n) => heard.push(String(n.payload)));
        await listener.query(`LISTEN ${CATALOGUE_CHANNEL}`);
        await reposA.devices.markHeard(a, 12345, "2026-01-01 00:00:00");
        const marker = `marker-${randomBytes(4).toString("hex")}`;
        await sql`select pg_notify(${CATALOGUE_CHANNEL}, ${marker})`.execute(a);
        await waitUntil("the marker announced", () => heard.includes(marker));
        // Other tests' schemas share the channel: only this schema's announcements count.
        assert.deepEqual(heard.filter((p) => p === tdb.schema || p === marker), [marker], "markHeard announced nothing");
      } finally {
        await listener.end();
      }
      assert.equal(changeGeneration(b, true), kept);
      // A's write: B drops its rows as soon as the commit's notification arrives.
      // (Waiting for the notification, an event, rather than asserting a time: a loaded machine delays it.)
      const told = changeGeneration(b, true);
      await reposA.locations.update(a, id, { name: "Written on A" });
      await waitUntil("B told of A's write", () => changeGeneration(b, true) !== told, 30_000);
      assert.equal(await nameOnB(), "Written on A", "the first read once told");
      // B's own write is seen by B at once, with no notification needed.
      await reposB.locations.update(b, id, { name: "Written on B" });
      assert.equal(await nameOnB(), "Written on B");
      // B's listening connection is cut: nothing is cached until it listens again.
      const pid = catalogueListenerPid(b);
      assert.ok(pid);
      await sql`select pg_terminate_backend(${pid}::integer)`.execute(sneak);
      // Polled often: the window before it listens again may be short.
      await waitUntil("B noticing the lost listener", () => changeGeneration(b, true) === undefined, 60_000, 2);
      await waitUntil("B listening again", () => changeGeneration(b, true) !== undefined);
      await reposA.locations.update(a, id, { name: "After reconnect" });
      await waitUntil("seen on B after reconnect", async () => (await nameOnB()) === "After reconnect", 30_000);
    } finally {
      await b.destroy();
      await sneak.destroy();
      await tdb.close();
    }
  });
});
