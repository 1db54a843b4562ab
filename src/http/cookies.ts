/**
 * The service's cookies, read and written without a cookie plugin: the portal and the console each
 * read one or two cookies per request, so a plugin's hooks (parse every request's Cookie header
 * before routing, serialise a jar on every send) cost every request more than they save. Values
 * the service sets are URL-safe tokens (base64url, a sealed document): written as they are.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** The value of one cookie of a request (the first of that name, as browsers send the most specific first), or undefined. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (let at = 0; at < header.length; ) {
    let end = header.indexOf(";", at);
    if (end === -1) end = header.length;
    const eq = header.indexOf("=", at);
    if (eq > at && eq < end && header.slice(at, eq).trim() === name) return decodeValue(header.slice(eq + 1, end).trim());
    at = end + 1;
  }
  return undefined;
}

function decodeValue(raw: string): string | undefined {
  const value = raw.length > 1 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export interface CookieOptions {
  path: string;
  /** Seconds; omitted: a session cookie (gone when the browser closes). 0 deletes the cookie. */
  maxAge?: number;
  secure: boolean;
}

/** `name=value` with its attributes: always HttpOnly and SameSite=Lax (sent on the top-level GET back from an OAuth provider, never on cross-site POSTs). */
export function cookieHeader(name: string, value: string, { path, maxAge, secure }: CookieOptions): string {
  const age = maxAge === undefined ? "" : maxAge === 0 ? "; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT" : `; Max-Age=${maxAge}`;
  return `${name}=${value}${age}; Path=${path}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Adds a Set-Cookie to the reply, replacing one of the same name set earlier in it. */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const line = cookieHeader(name, value, options);
  const earlier = reply.getHeader("set-cookie");
  if (earlier === undefined) {
    reply.header("set-cookie", line);
    return;
  }
  const lines = (Array.isArray(earlier) ? earlier : [String(earlier)]).filter((l) => !l.startsWith(`${name}=`));
  reply.removeHeader("set-cookie");
  reply.header("set-cookie", [...lines, line]);
}

/** Tells the browser to delete the cookie (same name and path). */
export function clearCookie(reply: FastifyReply, name: string, path: string): void {
  setCookie(reply, name, "", { path, maxAge: 0, secure: false });
}
