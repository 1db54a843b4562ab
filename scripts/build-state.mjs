// Whether dist/server (the compiled service) is current: built after every change to src/ and to the
// TypeScript configuration. Plain JavaScript, so that bin/guestwifi.js can ask before anything loads.
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OUT_DIR = join(ROOT, "dist", "server");
/** Written by scripts/build.mjs when a build succeeds; its mtime is when that build started. */
export const STAMP = join(OUT_DIR, ".built");

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

/** The newest modification among the inputs of the build. */
export function newestSource() {
  return Math.max(newest(join(ROOT, "src")), newest(join(ROOT, "tsconfig.json")), newest(join(ROOT, "tsconfig.build.json")));
}

/** True when dist/server was built from the sources as they are now. */
export function buildIsCurrent() {
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return false;
  }
  return newestSource() <= built;
}
