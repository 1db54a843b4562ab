/**
 * A PostgreSQL server of the test's own (initdb into a temporary directory, run as the postgres
 * OS user on a free port) that the test may stop, restart or kill. Never the shared server on 5432.
 */
import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freeTcpPort } from "./ports.js";

const run = promisify(execFile);
const BIN = "/usr/lib/postgresql/15/bin";

export interface PrivatePostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  start(): Promise<void>;
  /** Fast shutdown: open sessions are terminated (57P01), as a restart by an operator does. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
}

async function pgCtl(dir: string, ...args: string[]): Promise<void> {
  await run("runuser", ["-u", "postgres", "--", `${BIN}/pg_ctl`, "-D", join(dir, "data"), "-l", join(dir, "log"), ...args], { timeout: 60_000 });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "guestwifi-pg-"));
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  chownSync(dir, uid, gid);
  await run("runuser", ["-u", "postgres", "--", `${BIN}/initdb`, "-D", join(dir, "data"), "-A", "trust", "-U", "postgres", "--no-sync"], {
    timeout: 120_000,
  });
  const port = await freeTcpPort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
  let running = false;
  const pg: PrivatePostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await pgCtl(dir, "-o", options, "-w", "-t", "60", "start");
      running = true;
    },
    async stop() {
      running = false;
      await pgCtl(dir, "-m", "fast", "-w", "-t", "60", "stop");
    },
    async restart() {
      await pg.stop();
      await pg.start();
    },
    async destroy() {
      if (running) await pgCtl(dir, "-m", "immediate", "-w", "stop").catch(() => undefined);
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}
