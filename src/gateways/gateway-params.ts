/** Reading gateway query parameters defensively: anything odd becomes "" (MACs: macOrEmpty in src/mac-address.ts). */

/** A string parameter, or "" when absent, repeated or too long. */
export function param(q: Record<string, unknown>, name: string, max = 2048): string {
  const v = q[name];
  return typeof v === "string" && v.length <= max ? v.trim() : "";
}

/** An absolute http(s) URL without credentials, or "". */
export function httpUrlOrEmpty(v: string): string {
  if (!/^https?:\/\//i.test(v)) return "";
  try {
    const u = new URL(v);
    return u.username || u.password ? "" : u.href;
  } catch {
    return "";
  }
}
