/**
 * HTTP(S) calls to a UniFi or Omada controller. Every call is bounded by a timeout. With a pinned
 * certificate (the controller's tls_fingerprint) the TLS connection is opened first, the SHA-256 of
 * the certificate compared, and only then is anything (credentials included) sent over it; without
 * one, the usual certificate checks apply. Redirects are not followed.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { type OutboundRule, OutboundRefused, guardedLookup, literalRefusal } from "../outbound-address.js";

/**
 * "forbidden": the controller's address is not one the service may call (src/outbound-address.ts);
 * "refused": the controller refused the credentials; "site": it has no such site.
 */
export type ControllerFault = "unreachable" | "timeout" | "certificate" | "refused" | "rejected" | "forbidden" | "site";

/** A controller call that did not give what was asked; `answer` is what the controller said, for the log. */
export class ControllerError extends Error {
  constructor(
    readonly fault: ControllerFault,
    message: string,
    readonly answer?: { status: number; body: string },
  ) {
    super(message);
  }
}

/** What failed, in the words the console shows. */
const FAULT_WORDS: Readonly<Record<ControllerFault, string>> = {
  unreachable: "Unreachable",
  timeout: "Unreachable (no answer in time)",
  certificate: "Certificate mismatch",
  refused: "Wrong credentials",
  site: "Wrong site",
  rejected: "Unexpected answer",
  forbidden: "Address not allowed",
};

/** A ControllerError as the console says it: what failed, then what the service saw. */
export function faultMessage(err: ControllerError): string {
  return `${FAULT_WORDS[err.fault]}: ${err.message}.`;
}

export interface ControllerResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ControllerCall {
  method: "GET" | "POST" | "PATCH";
  url: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** 64 upper-case hex digits, or "" for the usual checks. */
  fingerprint: string;
  timeoutMs: number;
  /** Where the call may connect, checked on the resolved address of every connection. */
  rule: OutboundRule;
}

const MAX_BODY = 256 * 1024;

function pinnedSocket(u: URL, fingerprint: string, timeoutMs: number, rule: OutboundRule): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const host = u.hostname.replace(/^\[|\]$/g, "");
    const socket = tlsConnect({
      host,
      port: Number(u.port || 443),
      servername: /^[\d.]+$|:/.test(host) ? undefined : host,
      lookup: guardedLookup(rule) as never,
      // The chain of a self-signed controller does not verify; the pinned fingerprint decides instead.
      rejectUnauthorized: false,
    });
    const timer = setTimeout(() => socket.destroy(new ControllerError("timeout", `no TLS handshake within ${timeoutMs} ms`)), timeoutMs);
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      const seen = (socket.getPeerCertificate()?.fingerprint256 ?? "").replace(/:/g, "").toUpperCase();
      if (seen !== fingerprint) {
        socket.destroy();
        reject(new ControllerError("certificate", `certificate SHA-256 ${seen || "(none)"} is not the pinned ${fingerprint}`));
        return;
      }
      resolve(socket);
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(faultOf(err));
    });
  });
}

function faultOf(err: Error & { code?: string }): ControllerError {
  if (err instanceof ControllerError) return err;
  if (err instanceof OutboundRefused) return new ControllerError("forbidden", err.message);
  const cert = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(err.code ?? "");
  return new ControllerError(cert ? "certificate" : "unreachable", `${err.code ?? "error"}: ${err.message}`);
}

export async function controllerRequest(call: ControllerCall): Promise<ControllerResponse> {
  const u = new URL(call.url);
  const https = u.protocol === "https:";
  // Node asks no lookup for an IP literal: its address is checked here, a name's in the lookup.
  const why = literalRefusal(u, call.rule);
  if (why) throw new ControllerError("forbidden", `refused: ${why}`);
  const body = call.json === undefined ? undefined : Buffer.from(JSON.stringify(call.json), "utf8");
  const headers: Record<string, string> = { accept: "application/json", ...call.headers };
  if (body) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(body.length);
  }
  const started = Date.now();
  const socket = https && call.fingerprint ? await pinnedSocket(u, call.fingerprint, call.timeoutMs, call.rule) : undefined;
  const remaining = Math.max(1, call.timeoutMs - (Date.now() - started));
  return new Promise((resolve, reject) => {
    const options = {
      method: call.method,
      headers,
      // The pinned socket is used as is (no agent); otherwise a connection of its own, not kept alive.
      ...(socket ? { createConnection: () => socket } : { agent: false as const, lookup: guardedLookup(call.rule) as never }),
    };
    const req = (https ? httpsRequest : httpRequest)(u, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", (err) => {
        clearTimeout(timer);
        reject(faultOf(err));
      });
    });
    const timer = setTimeout(() => req.destroy(new ControllerError("timeout", `no answer within ${call.timeoutMs} ms`)), remaining);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(faultOf(err));
    });
    req.end(body);
  });
}

/** Cookies a controller sets, kept as name -> value and sent back on the next calls of the session. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(headers: IncomingHttpHeaders): void {
    for (const c of headers["set-cookie"] ?? []) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }
}

/** The JSON of an answer, or undefined. */
export function jsonOf(res: ControllerResponse): any {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}

/** What the log keeps of an answer: its status and the start of its body. */
export function answerOf(res: ControllerResponse): { status: number; body: string } {
  return { status: res.status, body: res.body.slice(0, 500) };
}
