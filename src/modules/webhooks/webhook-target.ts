/**
 * Where a webhook may point (SSRF rules): http or https only, no user name or password in the URL;
 * every address its host resolves to must be public, unless WEBHOOK_ALLOW_PRIVATE=true allows
 * private and loopback ones. Link-local addresses (169.254.0.0/16, fe80::/10: cloud metadata
 * services live there), unspecified, multicast and broadcast addresses are always refused. The rule
 * is checked when the webhook is saved and again on every connection (the resolver's answer may
 * change: DNS rebinding), through `guardedLookup`.
 */
import { type LookupAddress, type LookupAllOptions, lookup } from "node:dns";
import { isIP } from "node:net";

export type AddressKind = "public" | "private" | "forbidden";

function v4Parts(ip: string): number[] {
  return ip.split(".").map(Number);
}

function kindOfV4(ip: string): AddressKind {
  const [a = 0, b = 0] = v4Parts(ip);
  if (a === 169 && b === 254) return "forbidden"; // link-local, cloud metadata
  if (a === 0 || a >= 224) return "forbidden"; // "this network", multicast, reserved, broadcast
  if (a === 127 || a === 10) return "private";
  if (a === 172 && b >= 16 && b <= 31) return "private";
  if (a === 192 && b === 168) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private"; // carrier-grade NAT
  if (a === 198 && (b === 18 || b === 19)) return "private"; // benchmarking networks
  return "public";
}

function expandV6(ip: string): number[] | undefined {
  let text = ip.toLowerCase().split("%")[0] ?? "";
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Parts(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail === undefined ? [] : tail ? tail.split(":") : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array(Math.max(0, fill)).fill("0"), ...t].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** What kind of address an IP literal is. */
export function addressKind(ip: string): AddressKind {
  const family = isIP(ip.split("%")[0] ?? "");
  if (family === 4) return kindOfV4(ip);
  if (family !== 6) return "forbidden";
  const g = expandV6(ip);
  if (!g) return "forbidden";
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroHead && g5 === 0xffff) return kindOfV4(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`); // IPv4-mapped
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 1) return "private"; // ::1
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 0) return "forbidden"; // ::
  if ((g0 & 0xffc0) === 0xfe80) return "forbidden"; // link-local
  if (g0 === 0xfd00 && g1 === 0x0ec2) return "forbidden"; // AWS's IPv6 metadata service (fd00:ec2::254)
  if ((g0 & 0xff00) === 0xff00) return "forbidden"; // multicast
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local
  if (g0 === 0x64 && g1 === 0xff9b) return "private"; // NAT64 (may reach private IPv4)
  return "public";
}

/** Why an address may not be reached, or undefined when it may. */
export function addressRefusal(ip: string, allowPrivate: boolean): string | undefined {
  const kind = addressKind(ip);
  if (kind === "forbidden") return `${ip} is a link-local, multicast or reserved address, never allowed`;
  if (kind === "private" && !allowPrivate) return `${ip} is a private or loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)`;
  return undefined;
}

/** The URL's own problem (scheme, credentials, host), without resolving it. */
export function urlRefusal(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "The url must be an absolute http or https URL.";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "The url must be an absolute http or https URL.";
  if (u.username || u.password) return "The url may not contain a user name or password.";
  if (!u.hostname) return "The url must name a host.";
  return undefined;
}

function hostOf(u: URL): string {
  return u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true } as LookupAllOptions, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

/** Why the webhook may not point there (a sentence for the API), or undefined when it may. */
export async function targetRefusal(raw: string, allowPrivate: boolean): Promise<string | undefined> {
  const bad = urlRefusal(raw);
  if (bad) return bad;
  const host = hostOf(new URL(raw));
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
    } catch {
      return `The url's host ${host} does not resolve.`;
    }
  }
  for (const a of addresses) {
    const why = addressRefusal(a, allowPrivate);
    if (why) return `The url is refused: ${why}.`;
  }
  return undefined;
}

/** A `lookup` for http.request that refuses to connect to an address the rules forbid. */
export function guardedLookup(allowPrivate: boolean) {
  return (host: string, options: object, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
    lookup(host, { ...options, all: true, verbatim: true } as LookupAllOptions, (err, addresses) => {
      if (err) return cb(err, []);
      for (const a of addresses) {
        const why = addressRefusal(a.address, allowPrivate);
        if (why) return cb(Object.assign(new Error(`refused: ${why}`), { code: "EWEBHOOKTARGET" }), []);
      }
      if ((options as { all?: boolean }).all) return cb(null, addresses);
      const first = addresses[0];
      if (!first) return cb(Object.assign(new Error(`${host} does not resolve`), { code: "ENOTFOUND" }), []);
      cb(null, first.address, first.family);
    });
  };
}
