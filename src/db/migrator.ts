/**
 * Runs the migrations in migrations/ (forward-only in production).
 *
 * Our own runner rather than Kysely's `Migrator`: that one decides whether its bookkeeping table
 * exists by introspecting every table of every schema in the database, and PostgreSQL's
 * `pg_get_serial_sequence` inside that query fails with 3F000 when another schema is dropped while
 * it runs (another app, a parallel test). Here nothing looks outside the current schema. The
 * bookkeeping table keeps Kysely's name and columns, so databases migrated before stay valid.
 */
import { type Kysely, type Migration, sql } from "kysely";
import { dialectOf } from "./dialect.js";
import * as baseline from "./migrations/2026-11-27T0000-baseline.js";
import * as ownerEmailCase from "./migrations/2026-11-27T0200-owner-email-case.js";
import * as deviceCertificates from "./migrations/2026-11-27T0400-device-certificates.js";
import * as openSessionsByAddress from "./migrations/2026-11-27T0500-open-sessions-by-address.js";
import * as openSessionsInOrder from "./migrations/2026-11-27T0510-open-sessions-in-order.js";
import * as subUserLifecycle from "./migrations/2026-11-27T0800-sub-user-lifecycle.js";
import * as auditLog from "./migrations/2026-11-27T0900-audit-log.js";
import * as controllerStatus from "./migrations/2026-11-27T1200-controller-status.js";
import * as consentTexts from "./migrations/2026-11-27T1300-consent-texts.js";
import * as eapInstances from "./migrations/2026-11-27T1600-eap-instances.js";
import * as passpoint from "./migrations/2026-11-27T1700-passpoint.js";
import * as webhookOrder from "./migrations/2026-11-28T1000-webhook-order.js";
import * as locationUsage from "./migrations/2026-11-28T1700-location-usage.js";

/**
 * Static list in order, rather than a folder scan, so it works the same from source and from a bundle.
 * A new migration goes at the end, named after the day it is written (it must sort after the last).
 */
const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ["2026-11-27T0000-baseline", baseline],
  ["2026-11-27T0200-owner-email-case", ownerEmailCase],
  ["2026-11-27T0400-device-certificates", deviceCertificates],
  ["2026-11-27T0500-open-sessions-by-address", openSessionsByAddress],
  ["2026-11-27T0510-open-sessions-in-order", openSessionsInOrder],
  ["2026-11-27T0800-sub-user-lifecycle", subUserLifecycle],
  ["2026-11-27T0900-audit-log", auditLog],
  ["2026-11-27T1200-controller-status", controllerStatus],
  ["2026-11-27T1300-consent-texts", consentTexts],
  ["2026-11-27T1600-eap-instances", eapInstances],
  ["2026-11-27T1700-passpoint", passpoint],
  ["2026-11-28T1000-webhook-order", webhookOrder],
  ["2026-11-28T1700-location-usage", locationUsage],
];

/**
 * The development migrations the baseline replaced (before the first release). A database that has
 * all of them has the baseline's schema: its bookkeeping is rewritten to the baseline, once.
 */
const SQUASHED_INTO_BASELINE = [
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

const TABLE = "kysely_migration";

/**
 * Applies every migration not yet recorded, in order, in one transaction: a failure leaves the
 * database as it was. On PostgreSQL a transaction-scoped advisory lock (per schema) makes
 * instances that start together take turns; SQLite's write lock does the same there.
 * Returns the names applied.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const postgres = dialectOf(db) === "postgres";
  return db.transaction().execute(async (trx) => {
    if (postgres) await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.guestwifi.migrations'))`.execute(trx);
    await trx.schema
      .createTable(TABLE)
      .ifNotExists()
      .addColumn("name", "varchar(255)", (c) => c.notNull().primaryKey())
      .addColumn("timestamp", "varchar(255)", (c) => c.notNull())
      .execute();
    const done = new Set((await trx.selectFrom(TABLE).select("name").execute()).map((r) => r.name as string));
    if (SQUASHED_INTO_BASELINE.some((name) => done.has(name))) {
      const missing = SQUASHED_INTO_BASELINE.filter((name) => !done.has(name));
      if (missing.length > 0) {
        throw new Error(`the database was migrated by a development version that stopped before ${missing[0]}: recreate it`);
      }
      await trx.deleteFrom(TABLE).where("name", "in", SQUASHED_INTO_BASELINE).execute();
      await trx.insertInto(TABLE).values({ name: MIGRATIONS[0][0], timestamp: new Date().toISOString() }).execute();
      for (const name of SQUASHED_INTO_BASELINE) done.delete(name);
      done.add(MIGRATIONS[0][0]);
    }
    const known = new Set(MIGRATIONS.map(([name]) => name));
    const unknown = [...done].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(`the database has migrations this version does not know (${unknown.join(", ")}): it was migrated by a newer version`);
    }
    const applied: string[] = [];
    for (const [name, migration] of MIGRATIONS) {
      if (done.has(name)) continue;
      await migration.up(trx);
      await trx.insertInto(TABLE).values({ name, timestamp: new Date().toISOString() }).execute();
      applied.push(name);
    }
    return applied;
  });
}

/** Whether the database has been migrated at all (a new SQLite file or an empty PostgreSQL schema has not). */
export async function isMigrated(db: Kysely<any>): Promise<boolean> {
  const { rows } =
    dialectOf(db) === "postgres"
      ? await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = ${TABLE}`.execute(db)
      : await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = ${TABLE}`.execute(db);
  return Number(rows[0]?.n) > 0;
}
