/**
 * A redis-server of the test's own, on a free loopback port, with nothing saved to disk: a test
 * may stop it (SIGSTOP: the connection stays open and nothing answers), resume or kill it without
 * touching the machine's shared Redis. And a "Redis" that accepts connections and never answers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { type Server, type Socket, createServer } from "node:net";
import { Redis } from "ioredis";
import { freeTcpPort } from "./ports.js";

export interface RedisProcess {
  url: string;
  child: ChildProcess;
  /** SIGSTOP: the process keeps its sockets and answers nothing. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** Resumes it if paused, then SIGKILL, and waits for the exit. */
  destroy(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisProcess> {
  const port = await freeTcpPort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 500, retryStrategy: () => null });
    probe.on("error", () => {});
    const ok = await probe
      .connect()
      .then(() => probe.ping())
      .then(
        () => true,
        () => false,
      );
    probe.disconnect();
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`redis-server did not start on ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    async destroy() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGCONT");
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export interface SilentSocket {
  url: string;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** A TCP server that accepts every connection, reads what it is sent, and never writes a byte. */
export async function startSilentSocket(): Promise<SilentSocket> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on("data", () => {});
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    accepted: () => accepted,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
