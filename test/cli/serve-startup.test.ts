/**
 * `guestwifi serve` as an operator starts it: every line it prints on stdout is a JSON log line
 * (the start-up messages too, which still carry the created identifier and the URLs in `msg`), the
 * addresses it prints are the ones bound, --radius-only announces no HTTP, a bind failure names
 * the variable to change and exits 1, and a database migrated by a newer release is refused.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { DIALECTS } from "../helpers/db.js";
import { BIN, type CliDatabase, cliDatabase } from "./cli-db.js";

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

function serve(env: Record<string, string>, args: string[] = []): Run {
  const child = spawn(process.execPath, [BIN, "serve", ...args], {
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    err += d;
  });
  // "close": the process has exited and its stdout and stderr are read to the end.
  const exit = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Waits for the start-up line, whole (its newline read); the parsed lines so far. */
async function serving(run: Run, ms = 120_000): Promise<Record<string, any>[]> {
  const deadline = Date.now() + ms;
  while (!/guestwifi serving[^\n]*\n/.test(run.stdout())) {
    if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}:\n${run.stdout()}\n${run.stderr()}`);
    if (Date.now() > deadline) throw new Error(`not serving after ${ms} ms:\n${run.stdout()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return jsonLines(run.stdout());
}

function jsonLines(text: string): Record<string, any>[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      let parsed: Record<string, any> | undefined;
      try {
        parsed = JSON.parse(l);
      } catch {
        parsed = undefined;
      }
      assert.ok(parsed && typeof parsed === "object", `a line on stdout is not a JSON log line: ${l}`);
      return parsed;
    });
}

async function stop(run: Run): Promise<number | null> {
  if (run.child.exitCode === null) run.child.kill("SIGTERM");
  return run.exit;
}

for (const dialect of DIALECTS) {
  describe(`guestwifi serve start-up (${dialect})`, () => {
    let cdb: CliDatabase;
    before(async () => {
      cdb = await cliDatabase(dialect);
    });
    after(async () => cdb.close());

    it("prints only JSON lines on stdout, with the identifier and the bound addresses in msg, at any LOG_LEVEL", async () => {
      const run = serve({ DATABASE_URL: cdb.url, LOG_LEVEL: "info" });
      try {
        const lines = await serving(run);
        const first = lines.find((l) => /shown once/.test(l.msg));
        const identifier = /store it now\): ([A-Za-z0-9_-]{43})$/.exec(first?.msg ?? "")?.[1];
        assert.ok(identifier, run.stdout());
        const start = lines.find((l) => /^guestwifi serving /.test(l.msg))!;
        assert.equal(start.level, 30);
        const [url] = start.http as string[];
        const port = Number(new URL(url).port);
        assert.ok(port > 0, "PORT=0: the real port is printed");
        assert.ok(start.msg.includes(`${url} (API reference at ${url}/docs`), start.msg);
        assert.ok(start.radius.authPort > 0 && start.radius.acctPort > 0, "RADIUS ports as bound");
        assert.ok(start.msg.includes(`authentication 127.0.0.1:${start.radius.authPort}/udp`), start.msg);
        // The printed addresses are the ones bound: HTTP answers there, and the UDP ports are taken.
        assert.equal((await fetch(`${url}/api/location-list`, { headers: { identifier: identifier! } })).status, 200);
        await assert.rejects(bindUdp(start.radius.authPort), /EADDRINUSE/);
        // A request, a 404 and a scrape later, every line is still JSON.
        await fetch(`${url}/nothing-here`);
        assert.equal((await fetch(`${url}/metrics`)).status, 200);
      } finally {
        assert.equal(await stop(run), 0);
      }
      jsonLines(run.stdout());
      assert.equal(run.stderr(), "");

      // Silent logs still announce where it serves (and a second start creates no account).
      const quiet = serve({ DATABASE_URL: cdb.url, LOG_LEVEL: "silent" });
      try {
        const lines = await serving(quiet);
        assert.match(lines.at(-1)!.msg, /^guestwifi serving http:\/\/127\.0\.0\.1:\d+ /);
      } finally {
        await stop(quiet);
      }
      // All it printed, read to the end once it has exited (no pause to let late lines in).
      assert.equal(jsonLines(quiet.stdout()).length, 1, quiet.stdout());
    });

    it("--radius-only announces RADIUS only and listens on no TCP port", async () => {
      const run = serve({ DATABASE_URL: cdb.url, LOG_LEVEL: "info" }, ["--radius-only"]);
      try {
        const lines = await serving(run);
        const start = lines.find((l) => /^guestwifi serving /.test(l.msg))!;
        assert.match(start.msg, /^guestwifi serving RADIUS only: authentication 127\.0\.0\.1:\d+\/udp, accounting 127\.0\.0\.1:\d+\/udp; HTTP off$/);
        assert.equal(start.http, null);
        assert.ok(!/https?:\/\//.test(run.stdout()), `no URL announced:\n${run.stdout()}`);
      } finally {
        assert.equal(await stop(run), 0);
      }
    });

    it("refuses a database migrated by a newer release, with a clear message and exit code 1", async () => {
      await cdb.db().insertInto("kysely_migration" as any).values({ name: "2099-01-01T0000-from-the-future", timestamp: "x" }).execute();
      try {
        const run = serve({ DATABASE_URL: cdb.url, LOG_LEVEL: "info" });
        assert.equal(await run.exit, 1);
        assert.match(run.stderr(), /^guestwifi: the database has migrations this version does not know \(2099-01-01T0000-from-the-future\): it was migrated by a newer version\n$/);
        const fatal = jsonLines(run.stdout()).at(-1)!;
        assert.equal(fatal.level, 60);
        assert.match(fatal.msg, /could not start: the database has migrations this version does not know/);
      } finally {
        await cdb.db().deleteFrom("kysely_migration" as any).where("name", "=", "2099-01-01T0000-from-the-future").execute();
      }
    });
  });
}

function bindUdp(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createSocket("udp4");
    s.once("error", (err) => {
      s.close();
      reject(err);
    });
    s.bind(port, "127.0.0.1", () => s.close(() => resolve()));
  });
}

describe("guestwifi serve bind failures", () => {
  const db = `sqlite:${process.env.TMPDIR ?? "/tmp"}/guestwifi-bind-${process.pid}.db`;
  const taken: { close(): void }[] = [];
  let tcpPort = 0;
  let udpPort = 0;
  before(async () => {
    const tcp = createServer();
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    tcpPort = (tcp.address() as { port: number }).port;
    taken.push(tcp);
    const udp = createSocket("udp4");
    await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    udpPort = udp.address().port;
    taken.push(udp);
  });
  after(async () => {
    for (const t of taken) t.close();
    const { rmSync } = await import("node:fs");
    for (const s of ["", "-wal", "-shm"]) rmSync(db.slice("sqlite:".length) + s, { force: true });
  });

  const cases: { name: string; env: () => Record<string, string>; args?: string[]; message: () => RegExp }[] = [
    { name: "HTTP port in use", env: () => ({ PORT: String(tcpPort) }), message: () => new RegExp(`HTTP cannot listen on 127\\.0\\.0\\.1:${tcpPort}/tcp: the address is already in use.*Check HOST and PORT`) },
    { name: "HOST not of this machine", env: () => ({ HOST: "192.0.2.1" }), message: () => /HTTP cannot listen on 192\.0\.2\.1:0\/tcp: the address is not one of this machine's\. Check HOST and PORT \(HOST=192\.0\.2\.1, PORT=0\)/ },
    { name: "RADIUS auth port in use", env: () => ({ RADIUS_AUTH_PORT: String(udpPort) }), message: () => new RegExp(`RADIUS \\(authentication\\) cannot listen on 127\\.0\\.0\\.1:${udpPort}/udp: the address is already in use.*Check RADIUS_HOST and RADIUS_AUTH_PORT`) },
    { name: "RADIUS acct port in use", env: () => ({ RADIUS_ACCT_PORT: String(udpPort) }), args: ["--radius-only"], message: () => /RADIUS \(accounting\) cannot listen.*Check RADIUS_HOST and RADIUS_ACCT_PORT/ },
    { name: "RADIUS_HOST that does not resolve", env: () => ({ RADIUS_HOST: "no-such-host.invalid" }), message: () => /RADIUS \(authentication\) cannot listen on no-such-host\.invalid:0\/udp: the host name does not resolve\. Check RADIUS_HOST/ },
  ];

  for (const c of cases) {
    it(`${c.name}: names the variable and exits 1 without announcing`, async () => {
      const run = serve({ DATABASE_URL: db, LOG_LEVEL: "info", ...c.env() }, c.args);
      const code = await Promise.race([run.exit, new Promise<string>((r) => setTimeout(() => r("still running"), 30_000))]);
      if (code === "still running") run.child.kill("SIGKILL");
      assert.equal(code, 1, run.stdout() + run.stderr());
      assert.match(run.stderr(), c.message());
      assert.match(run.stderr(), /^guestwifi: [^\n]+\n$/, "one line, no stack");
      // All of stdout (read to its end): the HTTP server's own "listening" line may come after the
      // fatal one when the other bind fails first, so the fatal line is found by level, not position.
      const lines = jsonLines(run.stdout());
      const fatal = lines.filter((l) => l.level >= 50);
      assert.deepEqual(fatal.map((l) => l.level), [60], run.stdout());
      assert.match(fatal[0].msg, c.message());
      assert.ok(!lines.some((l) => /guestwifi serving/.test(l.msg)), "did not announce serving");
    });
  }
});
