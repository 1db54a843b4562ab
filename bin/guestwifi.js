#!/usr/bin/env node
// The guestwifi command. Runs the compiled JavaScript in dist/server, which `npm ci` builds (the
// package's prepare script; `npm run build` after editing src/). When src/ changed since that build
// (a checkout edited or pulled without a build), it runs the TypeScript sources through tsx instead
// (slower to start: a few seconds of CPU), and says so on stderr.
import { buildIsCurrent } from "../scripts/build-state.mjs";

if (buildIsCurrent()) {
  await import("../dist/server/cli/main.js");
} else {
  process.stderr.write("guestwifi: src/ changed since the last build (npm run build): running the sources through tsx\n");
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
