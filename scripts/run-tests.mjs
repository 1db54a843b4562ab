#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's own test runner (tsx for TypeScript).
// Extra arguments narrow the run: `npm test -- test/modules/locations`.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.length ? args : ["test", "src"];
const files = roots.flatMap((r) => (statSync(r).isDirectory() ? walk(r) : [r]));
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
const res = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=2", "--test-reporter=spec", ...files],
  { stdio: "inherit" },
);
process.exit(res.status ?? 1);
