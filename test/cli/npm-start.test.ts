/**
 * `npm start` as an operator (or a process manager) runs it: SIGTERM or SIGINT to the npm process
 * ends the service with it, leaving no node process behind (npm forwards the signal to its script's
 * process, which is the service itself: the script execs it rather than running it under a shell).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cliDatabase } from "./cli-db.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every process below `pid`, with its command line (Linux /proc). */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  const walk = (p: number) => {
    for (const child of readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      out.push({ pid: Number(child), cmd: readFileSync(`/proc/${child}/cmdline`, "utf8").replace(/\0/g, " ").trim() });
      walk(Number(child));
    }
  };
  walk(pid);
  return out;
}

const running = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`ends with its service on ${signal} to the npm process`, async () => {
      const db = await cliDatabase("sqlite");
      let below: { pid: number; cmd: string }[] = [];
      try {
        const npm = spawn("npm", ["start"], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: "127.0.0.1", PORT: "0", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0", DATABASE_URL: db.url },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        npm.stdout.on("data", (d) => {
          out += d;
        });
        const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`not serving within 60 s:\n${out}`)), 60_000);
          npm.stdout.on("data", () => {
            if (/guestwifi serving/.test(out)) {
              clearTimeout(timer);
              resolve();
            }
          });
          npm.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
        });
        below = descendants(npm.pid as number);
        assert.ok(below.some((p) => p.cmd.includes("bin/guestwifi.js serve")), JSON.stringify(below));
        npm.kill(signal);
        await exited;
        // npm has waited for its script's process: when it exits, none of them may be left.
        assert.deepEqual(below.filter((p) => running(p.pid)), []);
      } finally {
        for (const p of below) if (running(p.pid)) process.kill(p.pid, "SIGKILL");
        await db.close();
      }
    });
  }
});
