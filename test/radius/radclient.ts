/**
 * The real RADIUS client: Debian's radclient (freeradius-utils), over loopback. Its -x output is
 * parsed into the reply code and the reply attributes, named by FreeRADIUS's own dictionaries.
 */
import { spawn } from "node:child_process";
import { createSocket } from "node:dgram";

export interface RadclientResult {
  /** "Access-Accept", "Access-Reject", "Accounting-Response", or undefined when nothing came back. */
  code: string | undefined;
  attributes: Record<string, string>;
  output: string;
}

export const RADCLIENT = "/usr/bin/radclient";

/**
 * Sends one request (attribute lines as radclient reads them) and waits for the answer: up to
 * `timeoutSeconds`, or until `settled` resolves (the server counted the request as dropped: a
 * "no answer" proven without waiting the timeout out). Generous by default, as
 * other test files load the same two cores (10 s: under a load of 40 on two cores, 2 s missed answers).
 */
export function radclient(port: number, kind: "auth" | "acct", secret: string, lines: string[], timeoutSeconds = 10, settled?: Promise<unknown>): Promise<RadclientResult> {
  return new Promise((resolve, reject) => {
    const args = ["-x", "-r", "1", "-t", String(timeoutSeconds), `127.0.0.1:${port}`, kind, secret];
    const child = spawn(RADCLIENT, args, { stdio: ["pipe", "pipe", "pipe"] });
    // A request the server has settled otherwise (counted as dropped): no answer is coming, stop waiting for one.
    settled?.then(() => child.exitCode === null && child.kill());
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", reject);
    child.on("close", () => resolve(parseRadclient(output)));
    child.stdin.end(`${lines.join("\n")}\n`);
  });
}

export function parseRadclient(output: string): RadclientResult {
  const lines = output.split("\n");
  const at = lines.findIndex((l) => /^Received /.test(l));
  if (at === -1) return { code: undefined, attributes: {}, output };
  const code = /^Received (\S+)/.exec(lines[at])![1];
  const attributes: Record<string, string> = {};
  for (const l of lines.slice(at + 1)) {
    const m = /^\s+(\S+) = (.*)$/.exec(l);
    if (!m) break;
    attributes[m[1]] = m[2].replace(/^"(.*)"$/, "$1");
  }
  return { code, attributes, output };
}

/** A UDP client on one fixed source port (a NAS as the server sees it), sending exact bytes. */
export interface UdpPeer {
  /** Sends the packets, then collects answers until `expect` arrived or `waitMs` passed. */
  exchange(port: number, packets: Buffer[], expect?: number, waitMs?: number): Promise<Buffer[]>;
  close(): Promise<void>;
}

export async function openPeer(): Promise<UdpPeer> {
  const socket = createSocket("udp4");
  let answers: Buffer[] = [];
  let wanted = 0;
  let done: (() => void) | undefined;
  socket.on("message", (m) => {
    answers.push(m);
    if (wanted > 0 && answers.length >= wanted) done?.();
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    async exchange(port, packets, expect = packets.length, waitMs = 3000) {
      answers = [];
      wanted = expect;
      let timer: NodeJS.Timeout | undefined;
      const enough = new Promise<void>((resolve) => {
        done = resolve;
        timer = setTimeout(resolve, waitMs);
      });
      for (const p of packets) {
        await new Promise<void>((resolve, reject) => socket.send(p, port, "127.0.0.1", (err) => (err ? reject(err) : resolve())));
      }
      await enough;
      clearTimeout(timer);
      done = undefined;
      return answers;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Sends raw bytes from a fresh source port and collects the answers (see UdpPeer.exchange). */
export async function rawExchange(port: number, packets: Buffer[], expect = packets.length, waitMs = 3000): Promise<Buffer[]> {
  const peer = await openPeer();
  try {
    return await peer.exchange(port, packets, expect, waitMs);
  } finally {
    await peer.close();
  }
}
