#!/usr/bin/env node
// Runs every test/**/*.test.ts with Node's own test runner (tsx for TypeScript), in two tiers:
// first the unit tests of pure rules (*.unit.test.ts: no database, process, network or browser;
// seconds), and only when they pass, the rest. Extra arguments narrow the run:
// `npm test -- test/modules/locations`.
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
const unit = files.filter((f) => f.endsWith(".unit.test.ts"));
const rest = files.filter((f) => !f.endsWith(".unit.test.ts"));

function run(tier, list) {
  if (list.length === 0) return;
  if (unit.length > 0 && rest.length > 0) console.log(`\n--- ${tier} (${list.length} files)\n`);
  const res = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", "--test-reporter=spec", ...list], {
    stdio: "inherit",
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

run("unit tests", unit);
if (rest.length > 0) {
  // The CLI and service tests run bin/guestwifi.js, which runs the compiled dist/server: bring it up
  // to date first (nothing to do unless src/ changed since the last build).
  const build = spawnSync(process.execPath, [join(import.meta.dirname, "build.mjs"), "--if-stale"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
run("the other tests", rest);
