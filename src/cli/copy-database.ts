/**
 * Copies everything from a SQLite database to an empty PostgreSQL one: the way a venue that outgrows
 * SQLite keeps its accounts, secrets, identifiers, guests, history, sessions, webhooks and vouchers.
 *
 * The target is migrated first, so both have the same tables; the copy then runs in one PostgreSQL
 * transaction (a failure or a mismatch leaves the target as empty as it was), table by table in
 * foreign-key order, reading SQLite from one read transaction (a consistent snapshot while the
 * service keeps writing). Before committing it compares every table's row count and the sum of
 * every numeric column (bytes, seconds, counters, ids) on both sides, and moves each id sequence
 * past the copied ids so new rows do not collide.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../db/database.js";
import { dialectOf } from "../db/dialect.js";
import { migrateToLatest } from "../db/migrator.js";
import { transaction } from "../db/transaction.js";

export class CopyDatabaseError extends Error {}

/** PostgreSQL triggers that keep one table from another's writes (table, trigger): off while rows are copied. */
const DERIVING_TRIGGERS: ReadonlyArray<readonly [string, string]> = [
  ["daily_usage", "daily_usage_location_inserted"],
  ["daily_usage", "daily_usage_location_updated"],
];

export interface CopiedTable {
  table: string;
  rows: number;
}

export interface CopyReport {
  tables: CopiedTable[];
  rows: number;
  /** Numeric columns whose sums were compared on both sides. */
  checkedSums: number;
}

/** Rows read from SQLite per step, and the most parameters one PostgreSQL statement may carry. */
const PAGE_ROWS = 5_000;
const MAX_PARAMS = 60_000;
const MIGRATIONS_TABLE = "kysely_migration";

interface TargetColumn {
  name: string;
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

export async function copyDatabase(source: DB, target: DB, progress: (line: string) => void = () => {}): Promise<CopyReport> {
  if (dialectOf(source) !== "sqlite") throw new CopyDatabaseError("copy-database copies from SQLite; DATABASE_URL is already a PostgreSQL database");
  if (dialectOf(target) !== "postgres") throw new CopyDatabaseError("--to must be a PostgreSQL URL (postgres://…)");
  await migrateToLatest(source);
  await migrateToLatest(target);
  const pg = target as Kysely<any>;
  const tables = await targetTables(pg);
  const columns = await targetColumns(pg);
  await refuseNonEmpty(pg, tables);
  const order = foreignKeyOrder(tables, await foreignKeys(pg));

  const report = await transaction(source, async (liteTrx) =>
    transaction(target, async (pgTrx) => {
      const lite = liteTrx as Kysely<any>;
      const trx = pgTrx as Kysely<any>;
      // The built-in templates the migration inserted come again, with their ids, from the source.
      await sql`delete from campaigns where account_id is null`.execute(trx);
      // So do the templates' consent texts (the consent-texts migration keeps those of every campaign).
      await sql`delete from consent_texts`.execute(trx);
      // Totals the target's triggers keep (daily_location_usage) come from the source as they are:
      // the triggers would add the copied daily_usage rows to them a second time.
      for (const [table, trigger] of DERIVING_TRIGGERS) await sql`alter table ${sql.table(table)} disable trigger ${sql.id(trigger)}`.execute(trx);
      const copied: CopiedTable[] = [];
      for (const table of order) {
        const cols = await copyableColumns(lite, table, columns.get(table) ?? []);
        const total = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(lite)).rows[0].n);
        let done = 0;
        let lastRowid = -Number.MAX_SAFE_INTEGER;
        let nextReport = total >= 50_000 ? Math.ceil(total / 10) : Number.POSITIVE_INFINITY;
        while (done < total) {
          const page = await sql<Record<string, unknown>>`select rowid as "__rowid", ${sql.join(cols.map((c) => sql.ref(c)))} from ${sql.table(table)}
            where rowid > ${lastRowid} order by rowid limit ${PAGE_ROWS}`.execute(lite);
          if (page.rows.length === 0) break;
          lastRowid = Number(page.rows[page.rows.length - 1].__rowid);
          const perStatement = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
          for (let i = 0; i < page.rows.length; i += perStatement) {
            const values = page.rows.slice(i, i + perStatement).map((row) => sql`(${sql.join(cols.map((c) => row[c] ?? null))})`);
            await sql`insert into ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(trx);
          }
          done += page.rows.length;
          if (done >= nextReport && done < total) {
            progress(`copy-database: ${table} ${done} of ${total} rows`);
            nextReport += Math.ceil(total / 10);
          }
        }
        if (done !== total) throw new CopyDatabaseError(`${table}: read ${done} rows of ${total}`);
        if (total > 0) progress(`copy-database: ${table} ${total} rows`);
        copied.push({ table, rows: total });
      }
      for (const [table, trigger] of DERIVING_TRIGGERS) await sql`alter table ${sql.table(table)} enable trigger ${sql.id(trigger)}`.execute(trx);
      await moveSequences(trx);
      progress("copy-database: checking row counts and totals");
      const checkedSums = await compare(lite, trx, order, columns);
      return { tables: copied, rows: copied.reduce((n, t) => n + t.rows, 0), checkedSums };
    }),
  );
  // Autovacuum gathers the planner's statistics only a while later; until then PostgreSQL plans the
  // RADIUS batches as scans of every open session (docs/operations.md, Capacity of one instance).
  progress("copy-database: gathering the planner's statistics (ANALYZE)");
  await sql`analyze ${sql.join(order.map((t) => sql.table(t)))}`.execute(pg);
  return report;
}

async function targetTables(pg: Kysely<any>): Promise<string[]> {
  const r = await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> ${MIGRATIONS_TABLE} order by table_name`.execute(pg);
  return r.rows.map((x) => x.table_name);
}

async function targetColumns(pg: Kysely<any>): Promise<Map<string, TargetColumn[]>> {
  const r = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(pg);
  const out = new Map<string, TargetColumn[]>();
  for (const c of r.rows) {
    const list = out.get(c.table_name) ?? [];
    list.push({ name: c.column_name, type: c.data_type, nullable: c.is_nullable === "YES", hasDefault: c.column_default !== null });
    out.set(c.table_name, list);
  }
  return out;
}

/** Empty is what a fresh migration leaves: no rows anywhere but the built-in campaign templates and their consent texts. */
async function refuseNonEmpty(pg: Kysely<any>, tables: string[]): Promise<void> {
  const filled: string[] = [];
  for (const table of tables) {
    if (table === "consent_texts") continue;
    const where = table === "campaigns" ? sql`where account_id is not null` : sql``;
    const r = await sql<{ n: string }>`select count(*) as n from (select 1 from ${sql.table(table)} ${where} limit 1) x`.execute(pg);
    if (Number(r.rows[0].n) > 0) filled.push(table);
  }
  if (filled.length > 0) {
    throw new CopyDatabaseError(
      `the target database is not empty (rows in ${filled.join(", ")}); copy-database only copies into an empty database, so nothing was written`,
    );
  }
}

async function foreignKeys(pg: Kysely<any>): Promise<Array<[child: string, parent: string]>> {
  const r = await sql<{ child: string; parent: string }>`select c.relname as child, p.relname as parent from pg_constraint k
    join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(pg);
  return r.rows.map((x) => [x.child, x.parent]);
}

/** Parents before children; a table that refers to itself is copied in id order, which suffices. */
export function foreignKeyOrder(tables: string[], edges: Array<[child: string, parent: string]>): string[] {
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const [child, parent] of edges) if (child !== parent) parents.get(child)?.add(parent);
  const out: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (t: string, path: string[]) => {
    if (state.get(t) === "done") return;
    if (state.get(t) === "visiting") throw new CopyDatabaseError(`foreign keys form a cycle: ${[...path, t].join(" -> ")}`);
    state.set(t, "visiting");
    for (const p of [...(parents.get(t) ?? [])].sort()) visit(p, [...path, t]);
    state.set(t, "done");
    out.push(t);
  };
  for (const t of tables) visit(t, []);
  return out;
}

async function copyableColumns(lite: Kysely<any>, table: string, targetCols: TargetColumn[]): Promise<string[]> {
  const info = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(lite);
  if (info.rows.length === 0) throw new CopyDatabaseError(`the SQLite database has no table ${table}`);
  const have = new Set(info.rows.map((r) => r.name));
  const missing = targetCols.filter((c) => !have.has(c.name) && !c.nullable && !c.hasDefault).map((c) => c.name);
  if (missing.length > 0) throw new CopyDatabaseError(`${table}: the SQLite database has no ${missing.join(", ")}`);
  return targetCols.filter((c) => have.has(c.name)).map((c) => c.name);
}

/** Each serial column's sequence continues after the largest id copied. */
async function moveSequences(trx: Kysely<any>): Promise<void> {
  const r = await sql<{ table_name: string; column_name: string }>`select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`.execute(trx);
  for (const { table_name, column_name } of r.rows) {
    await sql`select setval(pg_get_serial_sequence(${table_name}, ${column_name}), coalesce((select max(${sql.ref(column_name)}) from ${sql.table(table_name)}), 0) + 1, false)`.execute(
      trx,
    );
  }
}

const NUMERIC = new Set(["integer", "bigint", "smallint", "double precision", "real", "numeric"]);

/** Row counts and the sum of every numeric column, on both sides; a difference aborts the copy. */
async function compare(lite: Kysely<any>, trx: Kysely<any>, tables: string[], columns: Map<string, TargetColumn[]>): Promise<number> {
  let checked = 0;
  const problems: string[] = [];
  for (const table of tables) {
    const numeric = (columns.get(table) ?? []).filter((c) => NUMERIC.has(c.type)).map((c) => c.name);
    const exprs = [sql`count(*) as "n"`, ...numeric.map((c, i) => sql`sum(${sql.ref(c)}) as ${sql.ref(`s${i}`)}`)];
    const [a] = (await sql<Record<string, unknown>>`select ${sql.join(exprs)} from ${sql.table(table)}`.execute(lite)).rows;
    const [b] = (await sql<Record<string, unknown>>`select ${sql.join(exprs)} from ${sql.table(table)}`.execute(trx)).rows;
    if (Number(a.n) !== Number(b.n)) problems.push(`${table}: ${a.n} rows in SQLite, ${b.n} in PostgreSQL`);
    numeric.forEach((c, i) => {
      const x = a[`s${i}`];
      const y = b[`s${i}`];
      if (!sameSum(x, y)) problems.push(`${table}.${c}: sum ${String(x)} in SQLite, ${String(y)} in PostgreSQL`);
      checked++;
    });
  }
  if (problems.length > 0) throw new CopyDatabaseError(`the copy does not match, so nothing was written: ${problems.join("; ")}`);
  return checked;
}

function sameSum(x: unknown, y: unknown): boolean {
  if (x === null || y === null) return x === y || Number(x ?? 0) === Number(y ?? 0);
  const a = String(x);
  const b = String(y);
  if (/^-?\d+$/.test(a) && /^-?\d+$/.test(b)) return BigInt(a) === BigInt(b);
  return Math.abs(Number(a) - Number(b)) <= 1e-9 * Math.max(1, Math.abs(Number(a)));
}
