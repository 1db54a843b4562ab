import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { OTHER_CONNECTION_POLL_MS, changeGeneration, createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { locationRepository } from "../../src/modules/locations/locations.repository.js";
import { createTestDb } from "../helpers/db.js";

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
      const { accountId } = await createAccount(a, "cache@example.com");
      const id = await locationRepository.insert(a, loc(accountId, "Before"));
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Before");
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Before");
      await locationRepository.update(a, id, { name: "Own write" });
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Own write");
      const g = changeGeneration(a);
      await locationRepository.update(b, id, { name: "Other connection" });
      await sleep(OTHER_CONNECTION_POLL_MS + 10);
      assert.notEqual(changeGeneration(a), g);
      assert.equal((await locationRepository.findOwned(a, accountId, [id]))[0].name, "Other connection");
      const other = await createAccount(a, "cache2@example.com");
      assert.deepEqual(await locationRepository.findOwned(a, other.accountId, [id]), [], "never another account's row");
    } finally {
      await a.destroy();
      await b.destroy();
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  });

  it("caches nothing on PostgreSQL", async () => {
    const pg = await createTestDb("postgres");
    try {
      assert.equal(changeGeneration(pg.db), undefined);
    } finally {
      await pg.close();
    }
  });
});
