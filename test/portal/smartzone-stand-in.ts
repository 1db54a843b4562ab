/**
 * A stand-in RUCKUS SmartZone on loopback: its APs' redirect of a guest to the external portal
 * (client_mac and uip encrypted, "ENC" + hex), and its northbound portal interface over HTTPS with
 * a self-signed certificate (`POST /portalintf`, JSON): GetConfig/Decrypt, and
 * UserOnlineControl/Login, for which it asks the RADIUS server with radclient as SmartZone does (PAP,
 * Called-Station-Id "AP-MAC:SSID", Ruckus VSAs) and answers 201 or 301. It can answer a login
 * 202 (pending) first, then 101 to the status query that follows. Every call is recorded.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Server, createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { type RadclientResult, radclient } from "../radius/radclient.js";
import type { TestCertificate } from "./controller-stand-ins.js";

export interface SmartZoneClient {
  mac: string;
  ip: string;
}

export interface SmartZoneAp {
  mac: string;
  ssid: string;
}

export interface SmartZoneOptions {
  username: string;
  password: string;
  radius: { port: number; secret: string };
  zoneName: string;
}

export interface SmartZoneStandIn {
  url: string;
  host: string;
  /** Every JSON body posted to /portalintf, in order. */
  calls: any[];
  /** The RADIUS exchanges of the logins, in order. */
  logins: { request: string[]; result: RadclientResult }[];
  /** The next login is answered 202 (pending); the status query then gets the outcome. */
  pendNextLogin(): void;
  encrypt(value: string): string;
  /** The redirect an AP of the zone sends the guest with, to the location's portal URL. */
  redirect(portalUrl: string, ap: SmartZoneAp, client: SmartZoneClient, nbiIP?: string): string;
  close(): Promise<void>;
}

const dashed = (m: string) => m.replace(/:/g, "-").toUpperCase();

export async function startSmartZone(cert: TestCertificate, opts: SmartZoneOptions): Promise<SmartZoneStandIn> {
  const key = randomBytes(16);
  const encrypt = (v: string) => {
    const c = createCipheriv("aes-128-ecb", key, null);
    return `ENC${Buffer.concat([c.update(v, "utf8"), c.final()]).toString("hex")}`;
  };
  const decrypt = (v: string): string | undefined => {
    if (!v.startsWith("ENC")) return v;
    try {
      const d = createDecipheriv("aes-128-ecb", key, null);
      return Buffer.concat([d.update(Buffer.from(v.slice(3), "hex")), d.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  };
  const calls: any[] = [];
  const logins: SmartZoneStandIn["logins"] = [];
  /** Where each client is associated (by its MAC), as the AP that redirected it told the controller. */
  const associations = new Map<string, SmartZoneAp>();
  /** Logins answered 202, by UE-MAC: their outcome once RADIUS answered. */
  const pending = new Map<string, Promise<number>>();
  let pendNext = false;

  async function login(body: any, mac: string, ip: string): Promise<number> {
    const ap = associations.get(mac);
    if (!ap) return 300;
    const request = [
      `User-Name = "${body["UE-Username"]}"`,
      `User-Password = "${body["UE-Password"]}"`,
      "NAS-IP-Address = 127.0.0.1",
      `NAS-Identifier = "${dashed(ap.mac)}"`,
      `Called-Station-Id = "${dashed(ap.mac)}:${ap.ssid}"`,
      `Calling-Station-Id = "${dashed(mac)}"`,
      "NAS-Port-Type = Wireless-802.11",
      "Service-Type = Login-User",
      `Framed-IP-Address = ${ip}`,
      `Ruckus-SSID = "${ap.ssid}"`,
      `Ruckus-Zone-Name = "${opts.zoneName}"`,
      `Ruckus-Wlan-Name = "${ap.ssid}"`,
      "Message-Authenticator = 0x00",
    ];
    const result = await radclient(opts.radius.port, "auth", opts.radius.secret, request, 3);
    logins.push({ request, result });
    if (result.code === "Access-Accept") return 201;
    return result.code === "Access-Reject" ? 301 : 401;
  }

  async function answer(body: any): Promise<Record<string, unknown>> {
    if (body?.Vendor?.toLowerCase() !== "ruckus" || body.APIVersion !== "1.0") return { ResponseCode: 302, ReplyMessage: "Bad request" };
    if (body.RequestPassword !== opts.password || (body.RequestUserName ?? "") !== opts.username) return { ResponseCode: 306, ReplyMessage: "Wrong request password" };
    if (body.RequestCategory === "GetConfig" && body.RequestType === "Decrypt") {
      const plain = decrypt(String(body.Data ?? ""));
      return plain === undefined ? { ResponseCode: 302, ReplyMessage: "Bad request" } : { ResponseCode: 200, ReplyMessage: "OK", Data: plain };
    }
    if (body.RequestCategory !== "UserOnlineControl") return { ResponseCode: 305, ReplyMessage: "Category not supported" };
    const mac = decrypt(String(body["UE-MAC"] ?? ""));
    const ip = decrypt(String(body["UE-IP"] ?? ""));
    if (!mac || !ip) return { ResponseCode: 300, ReplyMessage: "Not found" };
    if (body.RequestType === "Login") {
      if (pendNext) {
        pendNext = false;
        pending.set(mac, login(body, mac, ip));
        return { ResponseCode: 202, ReplyMessage: "Authentication pending" };
      }
      const code = await login(body, mac, ip);
      return { ResponseCode: code, ReplyMessage: code === 201 ? "Login succeeded" : "Login failed", "UE-MAC": body["UE-MAC"], "UE-IP": body["UE-IP"] };
    }
    if (body.RequestType === "Status") {
      const outcome = pending.get(mac);
      if (!outcome) return { ResponseCode: 100, ReplyMessage: "Client unauthorized" };
      const settled = await Promise.race([outcome, new Promise<undefined>((resolve) => setTimeout(resolve, 50))]);
      if (settled === undefined) return { ResponseCode: 202, ReplyMessage: "Authentication pending" };
      return settled === 201 ? { ResponseCode: 101, ReplyMessage: "Client authorized" } : { ResponseCode: 100, ReplyMessage: "Client unauthorized" };
    }
    return { ResponseCode: 304, ReplyMessage: "Command not supported" };
  }

  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (req.method !== "POST" || req.url !== "/portalintf") {
        res.writeHead(404, { connection: "close" }).end();
        return;
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      calls.push(body);
      const out = await answer(body);
      res.writeHead(200, { "content-type": "application/json", connection: "close" }).end(JSON.stringify({ Vendor: "Ruckus", APIVersion: "1.0", ...out }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    host: "127.0.0.1",
    calls,
    logins,
    pendNextLogin: () => {
      pendNext = true;
    },
    encrypt,
    redirect(portalUrl, ap, client, nbiIP = "127.0.0.1") {
      associations.set(client.mac.toUpperCase(), ap);
      const q = new URLSearchParams({
        nbiIP,
        sip: nbiIP,
        mac: ap.mac.toLowerCase(),
        client_mac: encrypt(client.mac.toUpperCase()),
        uip: encrypt(client.ip),
        proxy: "0",
        reason: "Un-Auth-Captive",
        ssid: ap.ssid,
        startUrl: "",
        url: "http://captive.apple.com/hotspot-detect.html",
        vlan: "1",
        wlan: "3",
        zoneName: opts.zoneName,
        wlanName: ap.ssid,
      });
      return `${portalUrl}?${q.toString()}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
