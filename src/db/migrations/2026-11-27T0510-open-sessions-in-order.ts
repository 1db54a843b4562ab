/**
 * session-list pages through the open sessions of some locations in id order. With only the index
 * of open sessions by location, PostgreSQL chose to walk the primary key over every session ever
 * kept (90 days of closed ones) for the first page: 140 ms at 100,000 sessions, 1 s at a million
 * (`npm run bench -- cost-curves`). The open sessions alone, in id order, keep a page's cost to the
 * sessions online, whatever the history.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("radius_sessions_open_id").on("radius_sessions").column("id").where(sql.ref("stopped_at"), "is", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("radius_sessions_open_id").execute();
}
