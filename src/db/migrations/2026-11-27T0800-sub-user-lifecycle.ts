/**
 * Sub-users with a lifecycle and a scope: a disabled sub-user keeps its row (and its name in the
 * audit of what it did) but signs in nowhere; its scope is the list of locations it may see and
 * change (",1,2," as list-column.ts keeps lists; "" for every location of the account).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sub_users").addColumn("disabled_at", "varchar(19)").execute();
  await db.schema.alterTable("sub_users").addColumn("location_scope", "text", (c) => c.notNull().defaultTo("")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sub_users").dropColumn("location_scope").execute();
  await db.schema.alterTable("sub_users").dropColumn("disabled_at").execute();
}
