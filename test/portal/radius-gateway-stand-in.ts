/**
 * A gateway that posts the guest's credentials to itself and then asks RADIUS (MikroTik HotSpot,
 * Aruba, RUCKUS, Cambium, Meraki's cloud for its sign-on splash), as a stand-in on loopback: it
 * sends a Chromium guest to the portal the way its vendor does, receives the login form the portal
 * has the browser post, sends the Access-Request with radclient as the vendor would (its NAS
 * attributes, PAP or CHAP), and shows the guest whether the RADIUS server let them in.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { type RadclientResult, radclient } from "../radius/radclient.js";

export interface GatewayClient {
  mac: string;
  ip: string;
}

export interface LoginAttempt {
  path: string;
  form: URLSearchParams;
  query: URLSearchParams;
  radius: RadclientResult;
}

export interface GatewayFamilySpec {
  /** What GET /start answers for the client: a redirect to the portal, or a page of the gateway's own. */
  start(client: GatewayClient, self: string): { redirect: string } | { html: string };
  /** The path the browser posts the credentials to. */
  loginPath: string;
  /** The radclient lines of the Access-Request this vendor sends for the posted form. */
  accessRequest(form: URLSearchParams, client: GatewayClient, query: URLSearchParams): string[];
  /** Where the gateway redirects a guest it let in (as the vendor does with the URL it was given). */
  landing(form: URLSearchParams, query: URLSearchParams): string;
}

export interface RadiusGateway {
  url: string;
  port: number;
  /** Where a guest's browser starts (the gateway intercepts it). */
  startUrl(client: GatewayClient): string;
  logins: LoginAttempt[];
  close(): Promise<void>;
}

/** Where the gateway listens: a loopback address and port (its vendor's fixed port), https with a self-signed certificate. */
export interface GatewayListen {
  host: string;
  port: number;
  tls?: { key: string; cert: string };
}

export async function startRadiusGateway(
  spec: GatewayFamilySpec,
  radius: { port: number; secret: string },
  at: GatewayListen = { host: "127.0.0.1", port: 0 },
): Promise<RadiusGateway> {
  const logins: LoginAttempt[] = [];
  let current: GatewayClient | undefined;
  let self = "";
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const u = new URL(req.url ?? "/", "http://gateway");
      const page = (status: number, body: string) => res.writeHead(status, { "content-type": "text/html; charset=utf-8", connection: "close" }).end(body);
      if (req.method === "GET" && u.pathname === "/start" && current) {
        const out = spec.start(current, self);
        if ("redirect" in out) res.writeHead(302, { location: out.redirect, connection: "close" }).end();
        else page(200, out.html);
        return;
      }
      if (req.method === "POST" && u.pathname === spec.loginPath && current) {
        const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        const result = await radclient(radius.port, "auth", radius.secret, [...spec.accessRequest(form, current, u.searchParams), "Message-Authenticator = 0x00"], 3);
        logins.push({ path: u.pathname, form, query: u.searchParams, radius: result });
        const next = result.code === "Access-Accept" ? spec.landing(form, u.searchParams) : "";
        if (next) res.writeHead(302, { location: next, connection: "close" }).end();
        else page(200, `<!doctype html><title>Gateway</title><h1>${result.code === "Access-Accept" ? "Logged in" : "Login failed"}</h1>`);
        return;
      }
      page(404, "<!doctype html><title>404</title><h1>Not here</h1>");
    });
  };
  const server: Server = at.tls ? createTlsServer(at.tls, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(at.port, at.host, resolve));
  const port = (server.address() as AddressInfo).port;
  self = `${at.tls ? "https" : "http"}://${at.host}${(at.tls && port === 443) || (!at.tls && port === 80) ? "" : `:${port}`}`;
  return {
    url: self,
    port,
    logins,
    startUrl(client) {
      current = client;
      return `${self}/start`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
