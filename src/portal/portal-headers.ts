/**
 * Security headers of every portal page. The Content-Security-Policy allows no script at all,
 * styles only from the one nonce'd element, and form submissions (including the redirects that
 * follow them, which browsers check against form-action) only to us and to the targets this page
 * may hand the guest to: its gateway, the enabled OAuth providers, the campaign's redirect_url.
 */
import type { FastifyReply } from "fastify";
import { randomBytesPooled } from "../random-text.js";

export function newNonce(): string {
  return randomBytesPooled(16).toString("base64");
}

/** A memo of a pure function: a page's form targets are a few gateway and provider URLs. */
const originMemo = new Map<string, string | undefined>();

/** `scheme://host[:port]` of a URL, or undefined. */
export function originOf(url: string): string | undefined {
  if (originMemo.has(url)) return originMemo.get(url);
  const origin = parseOrigin(url);
  if (originMemo.size >= 1_000) originMemo.clear();
  originMemo.set(url, origin);
  return origin;
}

function parseOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The policy of a page around its nonce (a nonce'd style, and a nonce'd script when `script`), by
 * the page's form targets: pages of one gateway and campaign share it, so it is built once.
 */
const policyMemo = new Map<string, string[]>();

function policyParts(formTargets: string[], script: boolean): string[] {
  const key = `${script ? 1 : 0}\n${formTargets.join("\n")}`;
  let parts = policyMemo.get(key);
  if (!parts) {
    const origins = [...new Set(formTargets.map(originOf).filter((o): o is string => o !== undefined))];
    // The campaign's logo comes from the portal's own logo route, never inline.
    const rest = ["img-src 'self'", `form-action 'self'${origins.map((o) => ` ${o}`).join("")}`, "base-uri 'none'", "frame-ancestors 'none'"].join("; ");
    parts = script ? ["default-src 'none'; style-src 'nonce-", "'; script-src 'nonce-", `'; ${rest}`] : ["default-src 'none'; style-src 'nonce-", `'; ${rest}`];
    if (policyMemo.size >= 1_000) policyMemo.clear();
    policyMemo.set(key, parts);
  }
  return parts;
}

/** `script`: allow the page's nonce'd script element (only the gateway hand-off page has one). */
export function setPortalHeaders(reply: FastifyReply, nonce: string, formTargets: string[], script = false): void {
  const parts = policyParts(formTargets, script);
  reply.headers({
    "content-security-policy": parts.length === 3 ? parts[0] + nonce + parts[1] + nonce + parts[2] : parts[0] + nonce + parts[1],
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    // Keeps the page state and the gateway's parameters out of providers' and gateways' logs.
    "referrer-policy": "no-referrer",
    // Each page carries its own signed state; a cached copy would carry a stale one.
    "cache-control": "no-store",
  });
}
