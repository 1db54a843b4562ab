/**
 * Local HTTP servers that play the parties the portal talks to: Twilio's Messages API, and a
 * gateway (CoovaChilli's /logon, Meraki's /splash/grant) that the browser is handed to.
 */
import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  form: URLSearchParams;
}

export interface StandIn {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A handler answers with a response, or with "drop" to cut the connection without one. */
type Answer = { status: number; type: string; body: string } | "drop";

async function listen(handler: (req: Recorded) => Answer): Promise<StandIn> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const u = new URL(req.url ?? "/", "http://stand-in");
      const rec: Recorded = {
        method: req.method ?? "",
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")),
      };
      requests.push(rec);
      const out = handler(rec);
      if (out === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(out.status, { "content-type": out.type, connection: "close" });
      res.end(out.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TwilioStandIn extends StandIn {
  /** Answer the next send with Twilio's error shape, this status and error code (21211 when not given). */
  failNext(status: number, code?: number): void;
  /** Take the next send, then cut the connection without an answer (was it sent? nobody knows). */
  dropNext(): void;
  /** The 6-digit code of the last message sent to `to`. */
  lastCode(to: string): string;
}

export async function startTwilioStandIn(): Promise<TwilioStandIn> {
  let fail = 0;
  let failCode = 21211;
  let drop = false;
  let n = 0;
  const standIn = await listen(() => {
    if (drop) {
      drop = false;
      return "drop";
    }
    if (fail) {
      const status = fail;
      fail = 0;
      // https://www.twilio.com/docs/api/errors: 21211 invalid 'To' number; 21610 the recipient replied STOP.
      const message = failCode === 21610 ? "Attempt to send to unsubscribed recipient" : "The 'To' number is not a valid phone number.";
      return { status, type: "application/json", body: JSON.stringify({ code: failCode, message, status }) };
    }
    n += 1;
    return { status: 201, type: "application/json", body: JSON.stringify({ sid: `SM${String(n).padStart(32, "0")}`, status: "queued" }) };
  });
  return {
    ...standIn,
    failNext(status, code = 21211) {
      fail = status;
      failCode = code;
    },
    dropNext() {
      drop = true;
    },
    lastCode(to) {
      const sent = standIn.requests.filter((r) => r.form.get("To") === to);
      const m = /\b(\d{6})\b/.exec(sent.at(-1)?.form.get("Body") ?? "");
      if (!m) throw new Error(`no code was texted to ${to}`);
      return m[1];
    },
  };
}

/** A gateway's web server: answers its logon and grant URLs with a small page. */
export function startGatewayStandIn(): Promise<StandIn> {
  return listen((r) => ({ status: 200, type: "text/html", body: `<!doctype html><title>Gateway</title><h1>Gateway ${r.path}</h1>` }));
}
