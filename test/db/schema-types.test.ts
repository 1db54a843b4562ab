/**
 * src/db/schema.ts (the row types Kysely checks queries against) and the database the migrations
 * build say the same thing: the same tables, the same columns in each, and a column may be null in
 * the database exactly when its type admits null. The types are read with the TypeScript compiler.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { sql } from "kysely";
import ts from "typescript";
import { DIALECTS, createTestDb } from "../helpers/db.js";

type Columns = Map<string, Map<string, boolean>>; // table -> column -> nullable

/** Tables that are not in the Database type on purpose: the migrator's bookkeeping, SQLite's full-text index. */
const INTERNAL = /^(kysely_migration|guest_search(_.*)?)$/;

function declaredColumns(): Columns {
  const file = fileURLToPath(new URL("../../src/db/schema.ts", import.meta.url));
  const program = ts.createProgram([file], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  assert.ok(source, "schema.ts is read");
  const database = checker.getExportsOfModule(checker.getSymbolAtLocation(source) as ts.Symbol).find((s) => s.name === "Database");
  assert.ok(database, "schema.ts exports Database");
  const out: Columns = new Map();
  for (const table of checker.getDeclaredTypeOfSymbol(database).getProperties()) {
    const columns = new Map<string, boolean>();
    for (const column of checker.getTypeOfSymbolAtLocation(table, source).getProperties()) {
      let type = checker.getTypeOfSymbolAtLocation(column, source);
      // Generated<T> and ColumnType<S, I, U>: what a select returns is S.
      const selected = type.getProperty("__select__");
      if (selected) type = checker.getTypeOfSymbolAtLocation(selected, source);
      const parts = type.isUnion() ? type.types : [type];
      columns.set(column.name, parts.some((p) => (p.flags & ts.TypeFlags.Null) !== 0));
    }
    out.set(table.name, columns);
  }
  return out;
}

function describeColumns(columns: Columns): string[] {
  return [...columns].flatMap(([table, cols]) => [...cols].map(([name, nullable]) => `${table}.${name}${nullable ? " null" : ""}`)).sort();
}

const declared = describeColumns(declaredColumns());

for (const dialect of DIALECTS) {
  describe(`schema types (${dialect})`, () => {
    it("src/db/schema.ts has the migrated tables, their columns and their nullability", async () => {
      const t = await createTestDb(dialect);
      try {
        const migrated: Columns = new Map();
        const add = (table: string, column: string, nullable: boolean) => {
          if (INTERNAL.test(table)) return;
          if (!migrated.has(table)) migrated.set(table, new Map());
          migrated.get(table)?.set(column, nullable);
        };
        if (dialect === "sqlite") {
          const { rows } = await sql<{ table: string; column: string; notnull: number; pk: number }>`
            select m.name as "table", c.name as "column", c."notnull" as "notnull", c.pk as pk
            from sqlite_master m join pragma_table_info(m.name) c
            where m.type = 'table' and m.name not like 'sqlite_%'`.execute(t.db);
          // SQLite lets a primary key column hold null only by a legacy quirk the application never uses.
          for (const r of rows) add(r.table, r.column, r.notnull === 0 && r.pk === 0);
        } else {
          const { rows } = await sql<{ table: string; column: string; nullable: string }>`
            select table_name as "table", column_name as "column", is_nullable as nullable
            from information_schema.columns where table_schema = current_schema()`.execute(t.db);
          for (const r of rows) add(r.table, r.column, r.nullable === "YES");
        }
        assert.deepEqual(describeColumns(migrated), declared);
      } finally {
        await t.close();
      }
    });
  });
}
