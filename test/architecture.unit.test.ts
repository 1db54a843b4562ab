/**
 * The layers of docs/architecture.md, checked on every import under src/ (type-only ones too):
 * a file imports only from its own layer or the layers below it, no two files import each other
 * through any chain, and no two feature folders of src/modules do either.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(import.meta.dirname, "..");

/** Bottom first. A file belongs to the first layer whose test matches its path (relative to the repository). */
const LAYERS: { name: string; has: (file: string) => boolean }[] = [
  { name: "core", has: (f) => f.startsWith("src/i18n/") || /^src\/(errors|config|database-timeouts|domain-errors|logger|mac-address|md5|metrics|outbound-address|portal-urls|project-root|config-readers|[a-z-]+-config|random-text|durations)\.ts$/.test(f) },
  { name: "db", has: (f) => f.startsWith("src/db/") },
  { name: "http", has: (f) => f.startsWith("src/http/") },
  { name: "policy", has: (f) => /^src\/gateways\/grant-[a-z-]+\.ts$/.test(f) },
  { name: "modules", has: (f) => f.startsWith("src/modules/") },
  { name: "radius", has: (f) => f.startsWith("src/radius/") },
  // The gateway families (src/gateways/<family>/ and their registry) are the portal's own: they hand guests over.
  { name: "portal", has: (f) => f.startsWith("src/portal/") || f.startsWith("src/gateways/") },
  { name: "app", has: (f) => /^src\/(app|app-deps|server)\.ts$/.test(f) || f.startsWith("src/cli/") || f.startsWith("src/console/") },
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (name.endsWith(".ts")) out.push(relative(ROOT, p));
  }
  return out;
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

/** The repository-relative .ts files a source file imports (packages and node: modules left out). */
export function importsOf(file: string, text = readFileSync(join(ROOT, file), "utf8")): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith(".")) continue;
    out.push(normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts"));
  }
  return out;
}

function layerOf(file: string): number {
  return LAYERS.findIndex((l) => l.has(file));
}

/** Every cycle's path, found by depth-first search over `edges`. */
function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

/** The feature folder of a file under src/modules/, or undefined for the files at its root. */
function featureOf(file: string): string | undefined {
  const m = /^src\/modules\/([^/]+)\//.exec(file);
  return m?.[1];
}

const files = sourceFiles(join(ROOT, "src"));
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe("architecture: imports only run downwards", () => {
  it("places every source file in a layer", () => {
    const loose = files.filter((f) => layerOf(f) < 0);
    assert.deepEqual(loose, [], "add these to a layer here and in docs/architecture.md");
  });

  it("never imports from a higher layer", () => {
    const upward: string[] = [];
    for (const [file, deps] of graph) {
      for (const dep of deps) {
        if (layerOf(dep) > layerOf(file)) upward.push(`${file} (${LAYERS[layerOf(file)].name}) -> ${dep} (${LAYERS[layerOf(dep)].name})`);
      }
    }
    assert.deepEqual(upward, []);
  });

  it("has no import cycle between files", () => {
    assert.deepEqual(
      cycles(graph).map((c) => c.join(" -> ")),
      [],
    );
  });

  it("has no import cycle between the feature folders of src/modules", () => {
    const features = new Map<string, Set<string>>();
    for (const [file, deps] of graph) {
      const from = featureOf(file);
      if (!from) continue;
      const set = features.get(from) ?? new Set<string>();
      for (const dep of deps) {
        const to = featureOf(dep);
        if (to && to !== from) set.add(to);
      }
      features.set(from, set);
    }
    const edges = new Map([...features].map(([k, v]) => [k, [...v]]));
    assert.deepEqual(
      cycles(edges).map((c) => c.join(" -> ")),
      [],
    );
  });

  it("reads every kind of import (the checks above would pass on an empty graph)", () => {
    const text = 'import a from "./a.js";\nimport type { B } from "../b.js";\nexport { c } from "./c/c.js";\nimport "./d.js";\nconst e = await import("./e.js");\nimport x from "kysely";';
    assert.deepEqual(importsOf("src/x/y.ts", text), ["src/x/a.ts", "src/b.ts", "src/x/c/c.ts", "src/x/d.ts", "src/x/e.ts"]);
    assert.ok(graph.get("src/app.ts")!.includes("src/http/api-route.ts"));
  });
});

/** Tables written by one owner (docs/architecture.md, "Who writes which table"): the files allowed to write each. */
const TABLE_WRITERS: Record<string, string[]> = {
  portal_credentials: ["src/radius/portal-credentials.repository.ts"],
  // The login writer; the erasure moves a guest's rows to its anonymous stand-in.
  logins: ["src/modules/guests/guest-activity.service.ts", "src/modules/guests/guest-rights.repository.ts"],
  guest_locations: ["src/modules/guests/guest-activity.service.ts", "src/modules/guests/guest-rights.repository.ts"],
  guest_macs: ["src/modules/guests/guest-activity.service.ts", "src/modules/guests/guest-rights.repository.ts"],
};

/** Whether the source text writes `table` (Kysely's builders or SQL text). */
export function writesTable(text: string, table: string): boolean {
  const builder = new RegExp(`\\b(insertInto|updateTable|deleteFrom)\\(\\s*"${table}"`);
  const raw = new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+${table}\\b`, "i");
  return builder.test(text) || raw.test(text);
}

describe("architecture: one owner per write", () => {
  const texts = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), "utf8")]));

  it("writes each owned table only from its owner", () => {
    const strays: string[] = [];
    for (const [table, owners] of Object.entries(TABLE_WRITERS)) {
      for (const [file, text] of texts) if (!file.includes("/migrations/") && writesTable(text, table) && !owners.includes(file)) strays.push(`${file} writes ${table}`);
    }
    assert.deepEqual(strays, []);
  });

  it("opens every transaction through src/db/transaction.ts, so its after-commit hooks are seen", () => {
    const raw = [...texts].filter(([f, text]) => /\.transaction\(\)/.test(text) && f !== "src/db/transaction.ts" && f !== "src/db/migrator.ts").map(([f]) => f);
    assert.deepEqual(raw, []);
  });

  it("recognises a write in either form (the checks above would pass on nothing)", () => {
    assert.ok(writesTable('await db.deleteFrom("portal_credentials").where(', "portal_credentials"));
    assert.ok(writesTable("insert into portal_credentials (username)", "portal_credentials"));
    assert.ok(!writesTable('db.selectFrom("portal_credentials")', "portal_credentials"));
    assert.ok(writesTable(texts.get("src/radius/portal-credentials.repository.ts")!, "portal_credentials"));
  });
});
