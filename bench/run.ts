/**
 * `npm run bench [name...]`: runs the benchmarks in bench/*.bench.ts (all, or those named),
 * each printing its figures and the ratio to the baseline it measures in the same run.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(", ")}`);
  process.exit(1);
}
for (const f of files) {
  console.log(`\n=== ${f.replace(".bench.ts", "")} ===`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: () => Promise<void> };
  await mod.default();
}
