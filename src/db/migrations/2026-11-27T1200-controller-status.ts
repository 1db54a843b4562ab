/**
 * What the service last heard from each controller (a Test connection, a guest's grant, a push of
 * the walled garden): ok or the fault in words, and when; and the hosts it last pushed as the
 * controller's pre-authorization allowances, so that the next push removes only its own entries.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("controllers").addColumn("last_status", "varchar(16)", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("controllers").addColumn("last_message", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("controllers").addColumn("last_checked_at", "varchar(19)", (c) => c.notNull().defaultTo("")).execute();
  // JSON array of host names.
  await db.schema.alterTable("controllers").addColumn("pushed_allowances", "text", (c) => c.notNull().defaultTo("[]")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["pushed_allowances", "last_checked_at", "last_message", "last_status"]) {
    await db.schema.alterTable("controllers").dropColumn(column).execute();
  }
}
