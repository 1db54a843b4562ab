/** Reading gateway query parameters defensively: anything odd becomes "" (MACs: macOrEmpty in src/mac-address.ts). */
import { memoize } from "./memo.js";

/** A string parameter, or "" when absent, repeated or too long. */
export function param(q: Record<string, unknown>, name: string, max = 2048): string {
  const v = q[name];
  return typeof v === "string" && v.length <= max ? v.trim() : "";
}

/**
 * Every page view reads the guest's `userurl`, and most are one of a few addresses (the operating
 * systems' connectivity checks: captive.apple.com, connectivitycheck.gstatic.com,
 * www.msftconnecttest.com); parsing one cost a page view about 1 µs. Only short ones are kept (at
 * most 1,000 of 256 characters): a long address is one guest's own.
 */
const parseShortUrl = memoize(parseHttpUrl);

/** An absolute http(s) URL without credentials, or "". */
export function httpUrlOrEmpty(v: string): string {
  if (!/^https?:\/\//i.test(v)) return "";
  return v.length > 256 ? parseHttpUrl(v) : parseShortUrl(v);
}

function parseHttpUrl(v: string): string {
  try {
    const u = new URL(v);
    return u.username || u.password ? "" : u.href;
  } catch {
    return "";
  }
}
