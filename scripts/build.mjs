#!/usr/bin/env node
// `npm run build` (and `npm ci`, which runs it as the package's prepare script): bundles src/ with
// esbuild into dist/server (what bin/guestwifi.js runs), then bundles the console into dist/console.
// esbuild, not tsc: it is a dependency (a production install, `npm ci --omit=dev`, has no typescript),
// and one bundle starts several times faster than ~300 modules plus their packages' ~1,000 files,
// which node resolves, reads and compiles one by one (issue 22: a restart within 1.5 s).
// `--if-stale`: only when the sources changed since the last build (the test runner asks for that).
// Types are not checked here: `npm run check` does that.
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { OUT_DIR, ROOT, STAMP, buildIsCurrent } from "./build-state.mjs";

if (process.argv.includes("--if-stale") && buildIsCurrent()) process.exit(0);

const started = new Date();
const t0 = performance.now();
rmSync(OUT_DIR, { recursive: true, force: true });
try {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { "cli/main": "src/cli/main.ts", "console/console-build": "src/console/console-build.ts" },
    outdir: OUT_DIR,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Modules only some runs need (the server, the demo, PostgreSQL...) become chunks loaded on first import().
    splitting: true,
    sourcemap: "linked",
    // Native addons and packages that read files beside their own code stay in node_modules.
    external: ["better-sqlite3", "pg", "pg-native", "esbuild", "@fastify/swagger-ui"],
    // Bundled CommonJS packages call require() for node's modules; an ES module has none of its own.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    logLevel: "warning",
  });
} catch {
  console.error("build: esbuild failed (its messages are above)");
  process.exit(1);
}

const { buildConsole } = await import(pathToFileURL(join(OUT_DIR, "console", "console-build.js")).href);
const manifest = await buildConsole();

// Stamped with the time the build started: a source saved while esbuild ran counts as newer.
writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);
console.log(
  `built dist/server (esbuild) and dist/console/${manifest.script} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
