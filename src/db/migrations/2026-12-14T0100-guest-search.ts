/**
 * The console's guest search finds part of a name, an e-mail or a phone number among an account's
 * guests. Without an index that is a scan of every guest; with one it costs what it finds.
 * - SQLite: an FTS5 table with the trigram tokenizer over each guest's lower-cased
 *   "name e-mail phone", kept by triggers on guests (inserts, changes of those three columns,
 *   deletes), so every writer (the portal, RADIUS, the demo, an erasure) keeps it without knowing.
 * - PostgreSQL: a GIN trigram index (pg_trgm) on the same expression, which the planner uses for the
 *   query's LIKE by itself. Creating the extension needs the right to (pg_trgm is a trusted extension:
 *   a database owner may); where it cannot be created the index is left out and the search scans.
 * And guest_macs gets an index by guest, for the MACs of a page of guests.
 */
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../dialect.js";

const TEXT = sql.raw(`lower(full_name || ' ' || email || ' ' || phone_number)`);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("guest_macs_guest").on("guest_macs").column("guest_id").execute();
  if (dialectOf(db) === "postgres") {
    await sql`savepoint guest_search_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm with schema public`.execute(db);
      await sql`release savepoint guest_search_trgm`.execute(db);
    } catch {
      // No right to create it, or another migration created it at the same moment: see below.
      await sql`rollback to savepoint guest_search_trgm`.execute(db);
    }
    const opclass = await sql<{ nspname: string }>`
      select n.nspname from pg_opclass c join pg_namespace n on n.oid = c.opcnamespace where c.opcname = 'gin_trgm_ops' limit 1`.execute(db);
    const schema = opclass.rows[0]?.nspname;
    if (schema !== undefined) {
      await sql`create index guests_search_trgm on guests using gin ((${TEXT}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    }
    return;
  }
  await sql`create virtual table guest_search using fts5(text, tokenize='trigram')`.execute(db);
  await sql`insert into guest_search (rowid, text) select id, ${TEXT} from guests`.execute(db);
  await sql`create trigger guest_search_insert after insert on guests begin
    insert into guest_search (rowid, text) values (new.id, lower(new.full_name || ' ' || new.email || ' ' || new.phone_number));
  end`.execute(db);
  await sql`create trigger guest_search_update after update of full_name, email, phone_number on guests
    when old.full_name is not new.full_name or old.email is not new.email or old.phone_number is not new.phone_number begin
    delete from guest_search where rowid = old.id;
    insert into guest_search (rowid, text) values (new.id, lower(new.full_name || ' ' || new.email || ' ' || new.phone_number));
  end`.execute(db);
  await sql`create trigger guest_search_delete after delete on guests begin
    delete from guest_search where rowid = old.id;
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop index if exists guests_search_trgm`.execute(db);
  } else {
    for (const t of ["guest_search_insert", "guest_search_update", "guest_search_delete"]) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
    await sql`drop table if exists guest_search`.execute(db);
  }
  await db.schema.dropIndex("guest_macs_guest").execute();
}
