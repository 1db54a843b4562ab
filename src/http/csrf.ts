/**
 * Defences against cross-site requests on the console's cookie session: the CSRF token every write
 * carries (compared in constant time), and for sign-in, which has no session yet, the browser's own
 * word on where the request comes from (Sec-Fetch-Site, else Origin).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * Whether `given` is the session's CSRF token. Both are hashed first, so the comparison takes the
 * same time whatever is given, its length included.
 */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== "string" || expected === "") return false;
  return timingSafeEqual(digest(given), digest(expected));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return typeof v === "string" ? v : undefined;
}

/** host[:port] without the default ports: a proxy in front may end TLS, so http and https count alike. */
function hostKey(hostAndPort: string): string | undefined {
  try {
    const u = new URL(`http://${hostAndPort}`);
    return u.port === "" || u.port === "443" ? u.hostname : u.host;
  } catch {
    return undefined;
  }
}

function originHost(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? hostKey(u.host) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a request must be refused as cross-site, or undefined. A browser says where a request comes
 * from: Sec-Fetch-Site (every current browser) must be `same-origin` (or `none`: typed by the user);
 * without it, an Origin must name this host (whatever the scheme: a proxy in front may end TLS) or
 * PUBLIC_URL's. A request with neither was not sent by a browser on another site's behalf (scripts,
 * curl): it is let through, as the API lets identifiers through.
 */
export function crossSiteRefusal(request: FastifyRequest, publicUrl: string): string | undefined {
  const site = header(request, "sec-fetch-site");
  if (site !== undefined) {
    return site === "same-origin" || site === "none" ? undefined : `Sec-Fetch-Site is ${site.slice(0, 20)}`;
  }
  const origin = header(request, "origin");
  if (origin === undefined) return undefined;
  const from = originHost(origin);
  if (from === undefined) return "the Origin is not a web page";
  if (from === hostKey(request.host) || from === originHost(publicUrl)) return undefined;
  return "the Origin is another site";
}
