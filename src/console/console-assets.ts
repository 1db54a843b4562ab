/** The console's bundle in memory, gzipped once: the page shell and its two files. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { OUT_DIR, buildConsole, bundleIsCurrent, readManifest } from "./console-build.js";

export interface ConsoleAsset {
  type: string;
  body: Buffer;
  /** Compressed on first use (not at start: a tenth of a second of every start, for a page few open). */
  readonly gzip: Buffer;
}

export interface ConsoleAssets {
  shell: string;
  files: Map<string, ConsoleAsset>;
}

/**
 * Files named by their content hash never change: read and gzipped once per process, however many
 * apps it builds (the tests build hundreds), not once per app.
 */
const loaded = new Map<string, ConsoleAssets>();

export async function loadConsoleAssets(): Promise<ConsoleAssets> {
  const manifest = bundleIsCurrent() ? readManifest()! : await buildConsole();
  const key = `${manifest.script}|${manifest.style}`;
  const known = loaded.get(key);
  if (known) return known;
  const files = new Map<string, ConsoleAsset>();
  for (const [name, type] of [
    [manifest.script, "text/javascript; charset=utf-8"],
    [manifest.style, "text/css; charset=utf-8"],
  ] as const) {
    const body = readFileSync(join(OUT_DIR, name));
    let gzip: Buffer | undefined;
    files.set(name, {
      type,
      body,
      get gzip() {
        gzip ??= gzipSync(body, { level: 9 });
        return gzip;
      },
    });
  }
  const shell = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Guest WiFi console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/${manifest.style}">
<script type="module" src="/console/assets/${manifest.script}"></script>
</head>
<body>
<div id="app"><noscript><p>The console needs JavaScript.</p></noscript></div>
</body>
</html>
`;
  const assets = { shell, files };
  loaded.set(key, assets);
  return assets;
}
