/**
 * RADIUS's own connections (createSiblingDatabase): on PostgreSQL a second pool of the size asked,
 * on the same database, whose catalogue writes every catalogue cache of the first pool sees; on
 * SQLite the same database (one connection).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { changeGeneration, createSiblingDatabase, poolStats } from "../../src/db/database.js";
import { nowDatetime } from "../../src/db/time.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`sibling database (${dialect})`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(dialect);
    });
    after(async () => t.close());

    it(dialect === "postgres" ? "has its own pool on the same data, and its catalogue writes reach the first pool's caches" : "is the database itself", async () => {
      const sibling = createSiblingDatabase(t.db, 3);
      if (dialect === "sqlite") {
        assert.equal(sibling, t.db);
        return;
      }
      try {
        assert.notEqual(sibling, t.db);
        assert.equal(poolStats(sibling)?.().max, 3);
        assert.notEqual(poolStats(t.db)?.().max, 3);
        const { id } = await sibling.insertInto("accounts").values({ email: "sibling@example.com", created_at: nowDatetime() }).returning("id").executeTakeFirstOrThrow();
        const seen = await t.db.selectFrom("accounts").select("email").where("id", "=", id).executeTakeFirstOrThrow();
        assert.equal(seen.email, "sibling@example.com");
        // The shared watch listens once asked; a catalogue write through either pool moves it on.
        // Listening is an event (the LISTEN connection up): waited for, with room for a loaded machine.
        let before = changeGeneration(t.db, true);
        for (const deadline = Date.now() + 30_000; before === undefined && Date.now() < deadline; ) {
          await new Promise((r) => setTimeout(r, 10));
          before = changeGeneration(t.db, true);
        }
        assert.notEqual(before, undefined, "the catalogue watch listens");
        assert.equal(changeGeneration(sibling, true), before, "one watch for both pools");
        await sibling.updateTable("locations").set({ name: "x" }).where("id", "=", -1).execute();
        assert.notEqual(changeGeneration(t.db, true), before, "a catalogue write of the sibling is seen by the first pool's caches");
      } finally {
        await sibling.destroy();
      }
      // The first pool (and the watch it owns) still works after the sibling ended.
      assert.equal((await t.db.selectFrom("accounts").select("id").where("email", "=", "sibling@example.com").execute()).length, 1);
    });
  });
}
