/**
 * An openNDS router as the portal meets it (a stand-in on loopback): its web server sends guests to
 * the FAS with the record openNDS builds for each faslevel, accepts `tok` at its authdir the way
 * openNDS checks it (sha256(hid + faskey)), and at level 3 plays authmon, polling the portal with
 * `auth_get` and acknowledging the clients it let in. Written from openNDS's documented behaviour,
 * with Node's crypto doing what its PHP helper does (openssl_encrypt, then base64 once more).
 */
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface NdsClient {
  mac: string;
  ip: string;
  hid: string;
  authed?: { via: "authdir" | "authmon"; params: string[]; redir?: string; custom?: string };
}

export interface NdsRouter {
  port: number;
  address: string;
  mac: string;
  gatewayname: string;
  clients: Map<string, NdsClient>;
  /** The URL a guest's browser is sent to first (the router redirects it to the FAS). */
  startUrl(clientMac: string): string;
  /** One authmon cycle: view, authenticate what came, acknowledge. Returns the raw answer. */
  authmonPoll(): Promise<string>;
  /** Sends one auth_get as authmon does (form POST). */
  authmonPost(action: string, payload: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64");

/** PHP's openssl_encrypt(string, "aes-256-cbc", key, 0, iv): key cut or zero-padded to 32 bytes, base64 out. */
function phpEncrypt(text: string, key: string, iv: string): string {
  const k = Buffer.alloc(32);
  Buffer.from(key).copy(k, 0, 0, 32);
  const c = createCipheriv("aes-256-cbc", k, Buffer.from(iv));
  return Buffer.concat([c.update(text, "utf8"), c.final()]).toString("base64");
}

export async function startNdsRouter(opts: {
  level: 1 | 2 | 3;
  faskey: string;
  mac: string;
  fasUrl: string;
  gatewayname?: string;
  authdir?: string;
  /** The page the guests asked for (openNDS's originurl), where the router sends them once let in. */
  originurl?: string;
}): Promise<NdsRouter> {
  const authdir = opts.authdir ?? "opennds_auth";
  // openNDS url-encodes the name in the record and hashes that form for authmon.
  const gatewayname = encodeURIComponent(opts.gatewayname ?? `Cafe Blau Node:${opts.mac.replace(/:/g, "").toLowerCase()}`);
  const clients = new Map<string, NdsClient>();
  let port = 0;
  const address = () => `127.0.0.1:${port}`;

  function record(c: NdsClient): string {
    const fields = [
      `hid=${c.hid}`,
      `clientip=${c.ip}`,
      `clientmac=${c.mac.toLowerCase()}`,
      "client_type=cpd_can",
      "cpi_query=",
      `gatewayname=${gatewayname}`,
      `gatewayurl=${encodeURIComponent(`http://${address()}`)}`,
      "version=10.2.0",
      `gatewayaddress=${address()}`,
      `gatewaymac=${opts.mac.toLowerCase()}`,
      ...(opts.level >= 2 ? [`authdir=${authdir}`] : []),
      `originurl=${encodeURIComponent(opts.originurl ?? "http://example.org/news")}`,
      "clientif=br-lan",
      "themespec=",
    ];
    return `${fields.join(", ")}, `;
  }

  function fasQuery(c: NdsClient): string {
    const r = record(c);
    if (opts.level === 1) return `?fas=${encodeURIComponent(b64(r))}`;
    const iv = sha256(b64(randomBytes(8))).slice(0, 16);
    return `?fas=${encodeURIComponent(b64(phpEncrypt(r, opts.faskey, iv)))}&iv=${iv}`;
  }

  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://router");
    if (u.pathname === "/start") {
      const c = clients.get(u.searchParams.get("client") ?? "");
      if (!c) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(302, { location: `${opts.fasUrl}${fasQuery(c)}`, connection: "close" }).end();
      return;
    }
    if (u.pathname === `/${authdir}/`) {
      const tok = u.searchParams.get("tok") ?? "";
      const redir = u.searchParams.get("redir");
      const client = [...clients.values()].find((c) => sha256(c.hid + opts.faskey) === tok);
      if (redir === null || !client) {
        res.writeHead(403, { "content-type": "text/html", connection: "close" }).end("<!doctype html><title>403</title><h1>Forbidden</h1>");
        return;
      }
      client.authed = { via: "authdir", params: [], redir, custom: u.searchParams.get("custom") ?? undefined };
      // openNDS sends the client on to redir once it is let in.
      res.writeHead(302, { location: redir, connection: "close" }).end();
      return;
    }
    res.writeHead(404, { connection: "close" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  const gatewayhash = sha256(gatewayname);

  async function authmonPost(action: string, payload: string) {
    const res = await fetch(opts.fasUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "openNDS(authmon;NDS:10.2.0;)" },
      body: new URLSearchParams({ auth_get: action, gatewayhash, payload: b64(payload) }).toString(),
    });
    return { status: res.status, body: (await res.text()).trim() };
  }

  return {
    port,
    address: address(),
    mac: opts.mac,
    gatewayname,
    clients,
    startUrl(clientMac) {
      const key = clientMac;
      if (!clients.has(key)) {
        clients.set(key, { mac: clientMac, ip: `192.168.8.${10 + clients.size}`, hid: sha256(randomBytes(16).toString("hex")) });
      }
      return `http://${address()}/start?client=${encodeURIComponent(key)}`;
    },
    authmonPost,
    async authmonPoll() {
      const { body } = await authmonPost("view", "none");
      if (!body.startsWith("*")) return body;
      const acked: string[] = [];
      for (const enc of body.slice(1).trim().split(/\s+/).filter(Boolean)) {
        const params = decodeURIComponent(enc).split(" ");
        const client = [...clients.values()].find((c) => sha256(c.hid + opts.faskey) === params[0]);
        if (!client) continue;
        client.authed = { via: "authmon", params };
        acked.push(params[0]);
      }
      if (acked.length > 0) await authmonPost("view", `* ${acked.join(" ")}`);
      return body;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
