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
import * as initial from "./migrations/2026-11-23T0000-initial.js";
import * as smsCodesByLocation from "./migrations/2026-12-01T0000-sms-codes-by-location.js";
import * as ownerPasswordsAndGuestExport from "./migrations/2026-12-05T0000-owner-passwords-and-guest-export.js";
import * as liveSessions from "./migrations/2026-12-08T0000-live-sessions.js";
import * as serviceSecrets from "./migrations/2026-12-09T0000-service-secrets.js";
import * as rateLimitHits from "./migrations/2026-12-10T0000-rate-limit-hits.js";
import * as controllers from "./migrations/2026-12-11T0000-controllers.js";
import * as portalGrants from "./migrations/2026-12-11T0100-portal-grants.js";
import * as openNdsGrants from "./migrations/2026-12-12T0000-opennds-grants.js";
import * as hourlyLogins from "./migrations/2026-12-13T0000-hourly-logins.js";
import * as loginCounterShards from "./migrations/2026-12-13T0000-login-counter-shards.js";
import * as notifyCatalogueChanges from "./migrations/2026-12-13T0000-notify-catalogue-changes.js";
import * as quietDeviceHeard from "./migrations/2026-12-13T0000-quiet-device-heard.js";
import * as consoleSessions from "./migrations/2026-12-14T0000-console.js";
import * as guestSearch from "./migrations/2026-12-14T0100-guest-search.js";
import * as guestRightsAndWebhooks from "./migrations/2026-12-15T0000-guest-rights-and-webhooks.js";
import * as consentAndVouchers from "./migrations/2026-12-16T0000-consent-and-vouchers.js";
import * as coaRequests from "./migrations/2026-12-17T0000-coa-requests.js";
import * as messages from "./migrations/2026-12-18T0000-messages.js";
import * as deviceCertificates from "./migrations/2026-12-20T0400-device-certificates.js";

/** Static list in order, rather than a folder scan, so it works the same from source and from a bundle. */
const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ["2026-11-23T0000-initial", initial],
  ["2026-12-01T0000-sms-codes-by-location", smsCodesByLocation],
  ["2026-12-05T0000-owner-passwords-and-guest-export", ownerPasswordsAndGuestExport],
  ["2026-12-08T0000-live-sessions", liveSessions],
  ["2026-12-09T0000-service-secrets", serviceSecrets],
  ["2026-12-10T0000-rate-limit-hits", rateLimitHits],
  ["2026-12-11T0000-controllers", controllers],
  ["2026-12-11T0100-portal-grants", portalGrants],
  ["2026-12-12T0000-opennds-grants", openNdsGrants],
  ["2026-12-13T0000-hourly-logins", hourlyLogins],
  ["2026-12-13T0000-login-counter-shards", loginCounterShards],
  ["2026-12-13T0000-notify-catalogue-changes", notifyCatalogueChanges],
  ["2026-12-13T0000-quiet-device-heard", quietDeviceHeard],
  ["2026-12-14T0000-console", consoleSessions],
  ["2026-12-14T0100-guest-search", guestSearch],
  ["2026-12-15T0000-guest-rights-and-webhooks", guestRightsAndWebhooks],
  ["2026-12-16T0000-consent-and-vouchers", consentAndVouchers],
  ["2026-12-17T0000-coa-requests", coaRequests],
  ["2026-12-18T0000-messages", messages],
  ["2026-12-20T0400-device-certificates", deviceCertificates],
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
