/**
 * The directory the service is installed in (where its package.json is), found from this file so
 * that it is the same whether the TypeScript sources run (src/) or the compiled JavaScript
 * (dist/server/), and whatever the current directory. Relative paths of the configuration (the
 * SQLite file of DATABASE_URL) and the console's bundle are resolved against it.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "bin", "guestwifi.js"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no guestwifi installation (package.json and bin/guestwifi.js) above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
