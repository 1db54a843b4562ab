#!/usr/bin/env node
// `npm run build` (and `npm ci`, which runs it as the package's prepare script): compiles src/ with
// tsc into dist/server (what bin/guestwifi.js runs), copies the files of src/ that are not TypeScript
// (the RADIUS dictionaries) beside them, and bundles the console into dist/console.
// `--if-stale`: only when the sources changed since the last build (the test runner asks for that).
// Type errors do not stop the build (tsc's noCheck, see tsconfig.build.json): `npm run check` finds them.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { OUT_DIR, ROOT, STAMP, buildIsCurrent } from "./build-state.mjs";

if (process.argv.includes("--if-stale") && buildIsCurrent()) process.exit(0);

const started = new Date();
const t0 = performance.now();
rmSync(OUT_DIR, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const res = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
if (res.status !== 0) {
  console.error(`build: tsc failed (exit ${res.status ?? res.signal})`);
  process.exit(1);
}

function copyAssets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(path);
    else if (!entry.name.endsWith(".ts")) {
      const to = join(OUT_DIR, relative(join(ROOT, "src"), path));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(path, to);
    }
  }
}
copyAssets(join(ROOT, "src"));

const { buildConsole } = await import(pathToFileURL(join(OUT_DIR, "console", "console-build.js")).href);
const manifest = await buildConsole();

// Stamped with the time the build started: a source saved while tsc ran counts as newer.
writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);
console.log(
  `built dist/server (tsc) and dist/console/${manifest.script} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
