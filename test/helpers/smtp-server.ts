/**
 * A real SMTP server for tests: Debian's aiosmtpd (python3-aiosmtpd) in a process of its own on a
 * free loopback port (smtp_server.py beside this file), keeping what it receives in a Maildir that
 * the test reads and parses (mailparser). Never a stand-in inside the test's process.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ParsedMail, simpleParser } from "mailparser";
import { freeTcpPort } from "./ports.js";

const SCRIPT = fileURLToPath(new URL("./smtp_server.py", import.meta.url));
/** Debian's interpreter, which has python3-aiosmtpd (the python3 on PATH may be another). */
const PYTHON = "/usr/bin/python3";

export interface SmtpServerOptions {
  /** STARTTLS (or implicit TLS with `smtps`) with a self-signed certificate made for 127.0.0.1. */
  tls?: boolean;
  smtps?: boolean;
  /** AUTH required with this user and password. */
  auth?: { user: string; pass: string };
  delayMs?: number;
  /** Answer 451 to the first N messages. */
  failFirst?: number;
  /** Recipients refused with 550. */
  reject?: string[];
}

export interface Received {
  raw: string;
  mail: ParsedMail;
  file: string;
}

export interface SmtpServer {
  port: number;
  /** The certificate (PEM) of a TLS server, for SMTP_CA_FILE. */
  caFile?: string;
  /** Messages received so far, in the order they arrived (smtp_server.py numbers the files). */
  received(): Promise<Received[]>;
  /** Waits until `n` messages are there (or fails after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  stop(): Promise<void>;
}

function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  const r = spawnSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
  ]);
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { cert, key };
}

export async function startSmtpServer(opts: SmtpServerOptions = {}): Promise<SmtpServer> {
  const dir = mkdtempSync(join(tmpdir(), "guestwifi-smtp-"));
  const maildir = join(dir, "mail");
  const port = await freeTcpPort();
  const args = [SCRIPT, "--port", String(port), "--dir", maildir];
  let caFile: string | undefined;
  if (opts.tls || opts.smtps) {
    const { cert, key } = selfSigned(dir);
    args.push("--cert", cert, "--key", key);
    caFile = cert;
  }
  if (opts.smtps) args.push("--smtps");
  if (opts.auth) args.push("--auth", `${opts.auth.user}:${opts.auth.pass}`);
  if (opts.delayMs) args.push("--delay-ms", String(opts.delayMs));
  if (opts.failFirst) args.push("--fail-first", String(opts.failFirst));
  for (const r of opts.reject ?? []) args.push("--reject", r);
  const child: ChildProcess = spawn(PYTHON, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!out.includes(`ready ${port}`)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`aiosmtpd did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const files = () => {
    try {
      return readdirSync(join(maildir, "new")).sort();
    } catch {
      return [];
    }
  };
  const received = async () => {
    const out: Received[] = [];
    for (const f of files()) {
      const raw = readFileSync(join(maildir, "new", f), "utf8");
      out.push({ raw, mail: await simpleParser(raw), file: join(maildir, "new", f) });
    }
    return out;
  };
  return {
    port,
    caFile,
    received,
    async waitFor(n, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (files().length < n) {
        if (Date.now() > end) throw new Error(`only ${files().length} of ${n} messages arrived:\n${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received();
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A DKIM key pair: the private key's file (for MAIL_DKIM_PRIVATE_KEY_FILE) and the public key's DNS TXT value. */
export function dkimKeyPair(dir: string): { keyFile: string; txt: string } {
  const keyFile = join(dir, "dkim.pem");
  const r = spawnSync("openssl", ["genrsa", "-out", keyFile, "2048"]);
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  const pub = spawnSync("openssl", ["rsa", "-in", keyFile, "-pubout"], { encoding: "utf8" });
  const b64 = pub.stdout.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  return { keyFile, txt: `v=DKIM1; k=rsa; p=${b64}` };
}

/**
 * Verifies a message's DKIM signature with Debian's dkimpy (python3-dkim), the DNS answer for the
 * selector being `txt`: an independent verifier, not our signer checking itself.
 */
export function dkimVerifies(raw: string, txt: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), "guestwifi-dkim-"));
  try {
    const file = join(dir, "message.eml");
    writeFileSync(file, raw);
    const code = `import dkim,sys\nmsg=open(sys.argv[1],'rb').read()\ntxt=sys.argv[2].encode()\nprint('pass' if dkim.verify(msg, dnsfunc=lambda name, timeout=5: txt) else 'fail')`;
    const r = spawnSync(PYTHON, ["-c", code, file, txt], { encoding: "utf8" });
    return r.stdout.trim() === "pass";
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
