/**
 * Bundles the console's page (console-ui/) with esbuild: one minified script and one stylesheet,
 * named by their content hash, into dist/console with a manifest. `npm ci` runs it (the package's
 * `prepare` script), so an installed tree serves the console without a build step; the service runs
 * it too at start when the bundle is missing or older than its sources (a checkout edited since).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROJECT_ROOT } from "../project-root.js";

export const ROOT = PROJECT_ROOT;
export const UI_DIR = join(ROOT, "console-ui");
export const OUT_DIR = join(ROOT, "dist", "console");

export interface ConsoleManifest {
  script: string;
  style: string;
  builtAt: number;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function readManifest(): ConsoleManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(OUT_DIR, "manifest.json"), "utf8")) as ConsoleManifest;
  } catch {
    return undefined;
  }
}

/** Whether the bundle is there and newer than every source file. */
export function bundleIsCurrent(): boolean {
  const m = readManifest();
  if (!m) return false;
  try {
    statSync(join(OUT_DIR, m.script));
    statSync(join(OUT_DIR, m.style));
  } catch {
    return false;
  }
  return m.builtAt >= newestSource(join(UI_DIR, "src"));
}

export async function buildConsole(): Promise<ConsoleManifest> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [join(UI_DIR, "src", "main.tsx"), join(UI_DIR, "src", "console.css")],
    bundle: true,
    minify: true,
    format: "esm",
    target: ["es2020"],
    jsx: "automatic",
    jsxImportSource: "preact",
    write: false,
    outdir: OUT_DIR,
    legalComments: "none",
    // No NODE_ENV define: none of the bundled packages (Preact, Chart.js) reads it; the bundle is byte
    // for byte the same without it.
    logLevel: "silent",
  });
  const named = (ext: string) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!file) throw new Error(`console build: no ${ext} output`);
    const hash = createHash("sha256").update(file.contents).digest("hex").slice(0, 12);
    return { name: `console-${hash}${ext}`, contents: file.contents };
  };
  const script = named(".js");
  const style = named(".css");
  mkdirSync(OUT_DIR, { recursive: true });
  // Content-named files and a manifest replaced by rename: builds that run at once (several services
  // or test processes starting together) never see a half-written file.
  const manifest: ConsoleManifest = { script: script.name, style: style.name, builtAt: Date.now() };
  const tmp = `.tmp-${process.pid}-${Date.now()}`;
  for (const [name, contents] of [
    [script.name, script.contents],
    [style.name, style.contents],
    ["manifest.json", Buffer.from(`${JSON.stringify(manifest)}\n`)],
  ] as const) {
    writeFileSync(join(OUT_DIR, name + tmp), contents);
    renameSync(join(OUT_DIR, name + tmp), join(OUT_DIR, name));
  }
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = await buildConsole();
  console.log(`console bundled: dist/console/${m.script}, dist/console/${m.style}`);
}
