/** Starts a benchmark target process and waits for its ready line. */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface Target<T> {
  info: T;
  /** The target's process id (its CPU time is read from /proc by load.ts). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * `readyWithinMs`: how long the target may take to print its ready line (building data can take minutes).
 * `nodeArgs`: options for the target's Node (a CPU profile: `--cpu-prof`).
 */
export async function startTarget<T>(script: string, args: string[], readyWithinMs = 60_000, nodeArgs: string[] = []): Promise<Target<T>> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const rl = createInterface({ input: child.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM"); // not left behind, still building
      reject(new Error(`${script} did not start in ${readyWithinMs / 1000} s`));
    }, readyWithinMs);
    rl.once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as T);
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    info,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

/** Runs `fn` with a started target and stops the target afterwards, whatever `fn` does. */
export async function withTarget<T, R>(script: string, args: string[], readyWithinMs: number, fn: (t: Target<T>) => Promise<R>): Promise<R> {
  const t = await startTarget<T>(script, args, readyWithinMs);
  try {
    return await fn(t);
  } finally {
    await t.stop();
  }
}
