/**
 * The real service as an operator runs it: `guestwifi serve` in a process of its own (HTTP and
 * RADIUS on free loopback ports), so that a test can see whether that process survives a fault.
 * Everything it prints (its JSON log lines included) is kept for the test to read.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freeTcpPort, freeUdpPort } from "./ports.js";

const BIN = fileURLToPath(new URL("../../bin/guestwifi.js", import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  httpUrl: string;
  authPort: number;
  acctPort: number;
  /** The identifier printed on first start of an empty database ("" on a later start). */
  identifier: string;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** Exit code or signal once exited; undefined while it runs. */
  exited(): string | undefined;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** `firstStart: false` for a database that already has its account (nothing is printed then). */
export async function startServiceProcess(env: Record<string, string>, startTimeoutMs = 120_000, { firstStart = true } = {}): Promise<ServiceProcess> {
  const port = await freeTcpPort();
  const authPort = await freeUdpPort();
  const acctPort = await freeUdpPort();
  const child = spawn(process.execPath, [BIN, "serve"], {
    env: {
      PATH: process.env.PATH,
      HOST: "127.0.0.1",
      PORT: String(port),
      RADIUS_HOST: "127.0.0.1",
      RADIUS_AUTH_PORT: String(authPort),
      RADIUS_ACCT_PORT: String(acctPort),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let exit: string | undefined;
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    out += d;
  });
  const exitedPromise = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = signal ?? String(code);
      resolve();
    }),
  );
  const deadline = Date.now() + startTimeoutMs;
  while (!/guestwifi serving/.test(out)) {
    if (exit !== undefined) throw new Error(`guestwifi serve exited (${exit}) before serving:\n${out}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`guestwifi serve did not start within ${startTimeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const identifier = /identifier \(shown once, store it now\): ([A-Za-z0-9_-]+)/.exec(out)?.[1];
  if (!identifier && firstStart) {
    child.kill("SIGKILL");
    throw new Error(`no identifier printed:\n${out}`);
  }
  return {
    child,
    httpUrl: `http://127.0.0.1:${port}`,
    authPort,
    acctPort,
    identifier: identifier ?? "",
    output: () => out,
    exited: () => exit,
    async stop() {
      if (exit === undefined) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exitedPromise;
        clearTimeout(killer);
      }
    },
  };
}
