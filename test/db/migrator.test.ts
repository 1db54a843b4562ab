/**
 * The migration runner: applies each migration once, in one transaction, lets instances that start
 * together take turns, and never looks outside its own schema (a schema another client drops while
 * we migrate must not matter: Kysely's introspecting Migrator failed there with 3F000).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { Migrator, sql } from "kysely";
import { createDatabase } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { DIALECTS, PG_URL, createTestDb } from "../helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`migrations (${dialect})`, () => {
    it("apply once; a second run applies nothing; a newer database's migration is refused", async () => {
      const t = await createTestDb(dialect);
      try {
        assert.deepEqual(await migrateToLatest(t.db), [], "createTestDb already migrated");
        const rows = await t.db.selectFrom("kysely_migration" as any).select("name").execute();
        assert.ok(rows.length >= 1);
        await t.db.insertInto("kysely_migration" as any).values({ name: "2099-01-01T0000-future", timestamp: "x" }).execute();
        await assert.rejects(migrateToLatest(t.db), /migrated by a newer version/);
      } finally {
        await t.close();
      }
    });

    it("a database migrated by the development migrations the baseline replaced is taken as the baseline; one that stopped halfway is refused", async () => {
      const t = await createTestDb(dialect);
      try {
        const table = "kysely_migration" as any;
        const recorded = (await t.db.selectFrom(table).select("name").orderBy("name").execute()).map((r: any) => r.name as string);
        const baseline = recorded[0];
        assert.match(baseline, /-baseline$/);
        // The migrations written after the baseline stay recorded: only the baseline is replaced by the old chain.
        await t.db.deleteFrom(table).where("name", "=", baseline).execute();
        const old = SQUASHED.map((name) => ({ name, timestamp: "2026-11-01T00:00:00.000Z" }));
        await t.db.insertInto(table).values(old.slice(0, 5)).execute();
        await assert.rejects(migrateToLatest(t.db), /stopped before 2026-12-10T0000-rate-limit-hits: recreate it/);
        await t.db.insertInto(table).values(old.slice(5)).execute();
        assert.deepEqual(await migrateToLatest(t.db), [], "nothing is applied again");
        const names = (await t.db.selectFrom(table).select("name").orderBy("name").execute()).map((r: any) => r.name);
        assert.deepEqual(names, recorded);
      } finally {
        await t.close();
      }
    });
  });
}

/** The development migrations squashed into the baseline, as a database migrated by them lists them. */
const SQUASHED = [
  "2026-11-23T0000-initial",
  "2026-12-01T0000-sms-codes-by-location",
  "2026-12-05T0000-owner-passwords-and-guest-export",
  "2026-12-08T0000-live-sessions",
  "2026-12-09T0000-service-secrets",
  "2026-12-10T0000-rate-limit-hits",
  "2026-12-11T0000-controllers",
  "2026-12-11T0100-portal-grants",
  "2026-12-12T0000-opennds-grants",
  "2026-12-13T0000-hourly-logins",
  "2026-12-13T0000-login-counter-shards",
  "2026-12-13T0000-notify-catalogue-changes",
  "2026-12-13T0000-quiet-device-heard",
  "2026-12-14T0000-console",
  "2026-12-14T0100-guest-search",
  "2026-12-15T0000-guest-rights-and-webhooks",
  "2026-12-16T0000-consent-and-vouchers",
  "2026-12-17T0000-coa-requests",
  "2026-12-18T0000-messages",
];

if (DIALECTS.includes("postgres")) {
  describe("migrations (postgres, shared database)", () => {
    it("instances that start together on one empty schema both succeed and apply each migration once", async () => {
      const schema = `mig_${randomBytes(5).toString("hex")}`;
      const admin = createDatabase(PG_URL, { poolSize: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin);
      const a = createDatabase(PG_URL, { searchPath: schema, poolSize: 2 });
      const b = createDatabase(PG_URL, { searchPath: schema, poolSize: 2 });
      try {
        const [ra, rb] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
        assert.equal(ra.length + rb.length, Math.max(ra.length, rb.length), "one of them applied everything, the other nothing");
        assert.ok(ra.length + rb.length >= 1);
        const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.id(schema)}.kysely_migration`.execute(admin);
        assert.equal(Number(rows[0].n), ra.length + rb.length);
      } finally {
        await a.destroy();
        await b.destroy();
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
        await admin.destroy();
      }
    });

    it("is not disturbed by other schemas being created and dropped while it runs", async () => {
      const admin = createDatabase(PG_URL, { poolSize: 2 });
      let churning = true;
      const churn = (async () => {
        // Bounded: at most 400 create/drop rounds, stops as soon as the migrations are done.
        for (let i = 0; i < 400 && churning; i++) {
          const s = `churn_${randomBytes(5).toString("hex")}`;
          await sql`create schema ${sql.id(s)}`.execute(admin);
          await sql`create table ${sql.id(s)}.t (id serial primary key)`.execute(admin);
          await sql`drop schema ${sql.id(s)} cascade`.execute(admin);
        }
      })();
      const schemas: string[] = [];
      try {
        for (let i = 0; i < 8; i++) {
          const schema = `mig_${randomBytes(5).toString("hex")}`;
          schemas.push(schema);
          await sql`create schema ${sql.id(schema)}`.execute(admin);
          const db = createDatabase(PG_URL, { searchPath: schema, poolSize: 1 });
          try {
            assert.ok((await migrateToLatest(db)).length >= 1);
          } finally {
            await db.destroy();
          }
        }
      } finally {
        churning = false;
        await churn;
        for (const s of schemas) await sql`drop schema if exists ${sql.id(s)} cascade`.execute(admin);
        await admin.destroy();
      }
    });

    it("keeps Kysely's bookkeeping table, so a database migrated by Kysely's Migrator is recognised", async () => {
      const schema = `mig_${randomBytes(5).toString("hex")}`;
      const admin = createDatabase(PG_URL, { poolSize: 1 });
      await sql`create schema ${sql.id(schema)}`.execute(admin);
      const db = createDatabase(PG_URL, { searchPath: schema, poolSize: 1 });
      try {
        const applied = await migrateToLatest(db);
        // Kysely's Migrator, pointed at the same table, sees every migration as done.
        const byName = Object.fromEntries(applied.map((name) => [name, { up: async () => assert.fail(`re-ran ${name}`) }]));
        const kysely = new Migrator({ db, provider: { getMigrations: async () => byName }, migrationTableSchema: schema });
        // Kysely's Migrator looks for its table by listing the tables of every schema, which fails
        // with 3F000 when another schema (another test run's) is dropped during the listing: that
        // is Kysely's race, not ours (our migrator reads its own schema only), so it is tried again.
        let outcome = await kysely.migrateToLatest();
        for (let tries = 1; tries < 5 && (outcome.error as { code?: string } | undefined)?.code === "3F000" && !String(outcome.error).includes(schema); tries++) {
          outcome = await kysely.migrateToLatest();
        }
        const { error, results } = outcome;
        assert.equal(error, undefined);
        assert.deepEqual(results, []);
      } finally {
        await db.destroy();
        await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
        await admin.destroy();
      }
    });
  });
}
