/**
 * Where the service may connect on its own initiative (webhooks, UniFi / Omada / RUCKUS
 * controllers): the one owner of the SSRF rule. An address is
 * - "public": globally routable unicast, always allowed;
 * - "private": loopback, RFC 1918, carrier-grade NAT (100.64/10), IPv6 unique-local (fc00::/7) and
 *   deprecated site-local (fec0::/10), the local-use NAT64 prefix (64:ff9b:1::/48); allowed only
 *   where the operator says so (WEBHOOK_ALLOW_PRIVATE, CONTROLLER_ALLOW_PRIVATE);
 * - "forbidden": everything else, never allowed: link-local (169.254/16 and fe80::/10, where cloud
 *   metadata services answer), known metadata addresses outside it, unspecified, multicast,
 *   broadcast, documentation, benchmarking, IETF protocol assignments (192.0.0.0/24), reserved
 *   and the deprecated IPv4-compatible IPv6 addresses (::a.b.c.d).
 * An IPv6 address that carries an IPv4 one (IPv4-mapped, SIIT, NAT64, 6to4, Teredo) is classed as
 * the IPv4 address it reaches. The ranges come from ipaddr.js; this file only sorts them.
 *
 * The rule is checked when a target is saved and again at every connection on the address the
 * resolver gave (`guardedLookup`, so a name that resolves elsewhere later — DNS rebinding — is
 * still refused), and on IP literals before connecting (`literalRefusal`: Node does not call
 * `lookup` for them).
 */
import { type LookupAddress, type LookupAllOptions, lookup } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type AddressKind = "public" | "private" | "forbidden";

/** Whether private addresses are allowed, and the variable that allows them (named in refusals). */
export interface OutboundRule {
  allowPrivate: boolean;
  variable: string;
}

/** Cloud metadata services outside link-local: AWS's IPv6 one (fd00:ec2::254), Alibaba Cloud's. */
const METADATA: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [ipaddr.parseCIDR("fd00:ec2::/32"), ipaddr.parseCIDR("100.100.100.200/32")];

/** NAT64's well-known prefix (RFC 6052), whose translators reach any IPv4 address. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const PRIVATE_V4 = new Set(["loopback", "private", "carrierGradeNat"]);
const PRIVATE_V6 = new Set(["loopback", "uniqueLocal", "deprecatedSiteLocal"]);
const RANK: Record<AddressKind, number> = { public: 0, private: 1, forbidden: 2 };

function stricter(a: AddressKind, b: AddressKind): AddressKind {
  return RANK[a] >= RANK[b] ? a : b;
}

function isMetadata(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return METADATA.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

function v4Of(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

function kindOfV4(ip: ipaddr.IPv4): AddressKind {
  if (isMetadata(ip)) return "forbidden";
  const range = ip.range();
  if (range === "unicast") return "public";
  return PRIVATE_V4.has(range) ? "private" : "forbidden";
}

function kindOfV6(ip: ipaddr.IPv6): AddressKind {
  if (isMetadata(ip)) return "forbidden";
  const p = ip.parts;
  const range = ip.range();
  switch (range) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d (SIIT)
      return kindOfV4(v4Of(p[6] ?? 0, p[7] ?? 0));
    case "rfc6052": // NAT64: the well-known prefix reaches the IPv4 address in its last 32 bits
      return ip.match(NAT64_WELL_KNOWN) ? kindOfV4(v4Of(p[6] ?? 0, p[7] ?? 0)) : "private";
    case "6to4": // 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD
      return kindOfV4(v4Of(p[1] ?? 0, p[2] ?? 0));
    case "teredo": // 2001:0:server:flags:port:client, the client's address inverted
      return stricter(kindOfV4(v4Of(p[2] ?? 0, p[3] ?? 0)), kindOfV4(v4Of(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)));
    case "unicast":
      // ::a.b.c.d, IPv4-compatible (deprecated by RFC 4291): not routable, whatever it embeds.
      return p.slice(0, 6).every((g) => g === 0) ? "forbidden" : "public";
    default:
      return PRIVATE_V6.has(range) ? "private" : "forbidden";
  }
}

/**
 * The address parsed. IPv6 goes through the URL parser first: ipaddr.js reads `::a.b.c.d` as
 * IPv4-mapped where the resolver and the kernel read an IPv4-compatible address; the URL parser
 * writes it as `::xxxx:xxxx`, which both read alike. A zone id does not change the class.
 */
function parsed(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.split("%")[0] ?? "";
  try {
    switch (isIP(bare)) {
      case 4:
        return ipaddr.IPv4.parse(bare);
      case 6:
        return ipaddr.IPv6.parse(new URL(`http://[${bare}]/`).hostname.slice(1, -1));
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** What kind of address an IP literal is (an IPv6 zone id is allowed); anything else is "forbidden". */
export function addressKind(text: string): AddressKind {
  const ip = parsed(text);
  if (!ip) return "forbidden";
  return ip.kind() === "ipv4" ? kindOfV4(ip as ipaddr.IPv4) : kindOfV6(ip as ipaddr.IPv6);
}

/** Why an address may not be reached, or undefined when it may. */
export function addressRefusal(ip: string, rule: OutboundRule): string | undefined {
  const kind = addressKind(ip);
  if (kind === "forbidden") return `${ip} is a link-local, metadata, multicast or reserved address, never allowed`;
  if (kind === "private" && !rule.allowPrivate) return `${ip} is a private or loopback address (allowed only with ${rule.variable}=true)`;
  return undefined;
}

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(u: URL): string {
  return u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
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

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true } as LookupAllOptions, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

/** Why the service may not call that URL (a sentence for the API, under `url`), or undefined when it may. */
export async function targetRefusal(raw: string, rule: OutboundRule): Promise<string | undefined> {
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
    const why = addressRefusal(a, rule);
    if (why) return `The url is refused: ${why}.`;
  }
  return undefined;
}

/** The error a refused connection fails with (`code` EADDRFORBIDDEN). */
export class OutboundRefused extends Error {
  readonly code = "EADDRFORBIDDEN";
  constructor(why: string) {
    super(`refused: ${why}`);
  }
}

/** Why a connection to the URL's host may not be opened when that host is an IP literal (names go through `guardedLookup`). */
export function literalRefusal(u: URL, rule: OutboundRule): string | undefined {
  const host = hostOf(u);
  return isIP(host) ? addressRefusal(host, rule) : undefined;
}

/**
 * A `lookup` for http.request / net.connect / tls.connect that resolves as usual and refuses the
 * connection when any address of the answer is not allowed: the check is made on the address
 * connected to, not on a name checked earlier.
 */
export function guardedLookup(rule: OutboundRule) {
  return (host: string, options: object, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
    lookup(host, { ...options, all: true, verbatim: true } as LookupAllOptions, (err, addresses) => {
      if (err) return cb(err, []);
      for (const a of addresses) {
        const why = addressRefusal(a.address, rule);
        if (why) return cb(new OutboundRefused(why), []);
      }
      if ((options as { all?: boolean }).all) return cb(null, addresses);
      const first = addresses[0];
      if (!first) return cb(Object.assign(new Error(`${host} does not resolve`), { code: "ENOTFOUND" }), []);
      cb(null, first.address, first.family);
    });
  };
}
