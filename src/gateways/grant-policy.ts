/**
 * The grant policy: what a guest gets at a location, decided once, here. Every front door takes its
 * answer from `grantFor`: RADIUS's Access-Accept (src/radius/reply-attributes.ts), the CoA after a
 * change of options (src/radius/session-control.ts), the controller families' grants
 * (src/portal/controller-grants.ts), openNDS (authdir and authmon), Meraki's grant URL, the RFC 8908
 * API (src/modules/sessions/captive-status.service.ts), the console's attribute table and the
 * generated gateway configurations (src/gateways/<family>/).
 *
 * The policy is pure: it reads the location's options, a voucher's limits, what the guest used
 * today and the service's settings, and answers in the options' own units (seconds, bytes, bytes
 * per second, host names). Each gateway family turns the answer into its vendor's units and
 * mechanisms; where a family cannot carry a part, docs/gateways.md says so.
 */

import { DEFAULT_SESSION_SECONDS } from "../durations.js";
import type { Config } from "../config.js";

/** How long a gateway that needs a duration (controllers, grant URLs, openNDS) lets a guest in when the location sets no session time: one day. */
export const DEFAULT_GRANT_SECONDS = DEFAULT_SESSION_SECONDS;

/**
 * The filtering resolvers guests get when a location turns `content_filter` on and the service sets
 * no CONTENT_FILTER_DNS: Cloudflare's 1.1.1.1 for Families, "malware and adult content" pair
 * (https://developers.cloudflare.com/1.1.1.1/setup/#1111-for-families).
 */
export const DEFAULT_CONTENT_FILTER_DNS: readonly string[] = Object.freeze(["1.1.1.3", "1.0.0.3"]);

/**
 * The filter role a guest gets when the location turns `content_filter` on, where the family's
 * gateway takes one from RADIUS (Mikrotik-Address-List, Aruba-User-Role, Filter-Id): the name its
 * generated configuration (or the operator) gives the rules that send that guest's DNS to the
 * filtering resolvers.
 */
export const CONTENT_FILTER_ROLE = "guestwifi-filtered";

/** A location's options as stored (location_options), the parts the policy reads. */
export interface GrantOptions {
  session_time_limit: number;
  max_bandwidth_up: number;
  max_bandwidth_down: number;
  daily_bandwidth_cap: number;
  content_filter: number;
  dns_server_1: string;
  dns_server_2: string;
  whitelist: string;
  blacklist: string;
}

/** What a voucher grants now (vouchers.service.ts's VoucherLimits). */
export interface GrantVoucher {
  secondsLeft: number;
  bandwidthUp: number;
  bandwidthDown: number;
  /** Octets left of the code's own cap; undefined when it has none. */
  bytesLeft: number | undefined;
}

/** The service's settings the policy reads. */
export interface GrantSettings {
  /** Seconds between Interim-Updates (RADIUS_INTERIM_INTERVAL). */
  interimInterval: number;
  /** The filtering resolvers (CONTENT_FILTER_DNS; DEFAULT_CONTENT_FILTER_DNS when unset). */
  contentFilterDns?: readonly string[];
  /** PUBLIC_URL: its host is in every walled garden (the portal itself). */
  publicUrl?: string;
  /** Authorize URLs of the OAuth login methods the location's campaign offers (their hosts join the walled garden). */
  loginUrls?: readonly string[];
}

export interface GrantInput {
  options: GrantOptions;
  voucher?: GrantVoucher;
  /** Octets the guest used at the location today (local day); undefined: not looked up (the whole cap is left). */
  usedToday?: number;
  settings: GrantSettings;
}

/** What a guest gets. Zero means "no limit" for every number but `grantSeconds`. */
export interface Grant {
  /** The session's length as the location (or voucher) sets it; 0: none (RADIUS sends no Session-Timeout). */
  sessionSeconds: number;
  /** How long a gateway that must be told a duration lets the guest in: the session's length, else a day. */
  grantSeconds: number;
  /** Idle timeout in seconds; 0: the gateway's own (locations have no idle option). */
  idleSeconds: number;
  /** Bytes per second; 0: no limit. */
  upBytesPerSecond: number;
  downBytesPerSecond: number;
  /** The location's daily cap in bytes; 0: none. */
  dailyCap: number;
  /** Octets the guest may still use (the voucher's own, else today's cap minus what was used); undefined: no cap. */
  remainingBytes: number | undefined;
  /** Nothing is left: the guest must not get online. */
  spent: boolean;
  /** Seconds between the gateway's Interim-Updates. */
  interimInterval: number;
  /** The guests' DNS servers (the filtering resolvers when the filter is on); empty: the gateway's own. */
  dns: string[];
  /** Content filtering on: `dns` are the filtering resolvers. */
  filter: boolean;
  /** CONTENT_FILTER_ROLE when the filter is on, else "": the role RADIUS hands families that take one. */
  filterRole: string;
  /** Hosts reachable before login: the portal's host, the login methods' hosts, the location's whitelist. */
  walledGarden: string[];
  /** Hosts blocked for guests after login (the location's blacklist). */
  blocked: string[];
}

/** A host name as a walled garden takes it (`*.` prefix allowed), or undefined when `raw` is not one. */
export function hostOf(raw: string): string | undefined {
  let s = raw.trim().toLowerCase();
  if (s === "") return undefined;
  // A URL pasted into the list: its host.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//.exec(s);
  if (scheme) s = s.slice(scheme[0].length);
  s = s.replace(/[/?#].*$/, "").replace(/:\d+$/, "").replace(/\.$/, "");
  if (s.length > 253) return undefined;
  const wildcard = s.startsWith("*.");
  const name = wildcard ? s.slice(2) : s;
  // Two labels at least: a walled garden names public hosts, not a LAN name.
  const labels = name.split(".");
  if (labels.length < 2 || !labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return undefined;
  return s;
}

/** The hosts of a stored list (comma-, space- or newline-separated), each once, in order. */
export function hostList(text: string): string[] {
  const out: string[] = [];
  for (const item of text.split(/[\s,;]+/)) {
    const host = hostOf(item);
    if (host !== undefined && !out.includes(host)) out.push(host);
  }
  return out;
}

function urlHost(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return hostOf(new URL(url).hostname.replace(/^\[|\]$/g, ""));
  } catch {
    return undefined;
  }
}

/** IPv4 or IPv6 literal, as the DNS options hold them (validated on input); "" skipped. */
function dnsOf(o: GrantOptions): string[] {
  return [o.dns_server_1, o.dns_server_2].map((s) => s.trim()).filter((s) => s !== "");
}

/** What a guest gets at a location: the one answer every gateway path uses. */
export function grantFor(input: GrantInput): Grant {
  const { options: o, voucher, settings } = input;
  const sessionSeconds = voucher ? Math.max(0, voucher.secondsLeft) : Math.max(0, o.session_time_limit);
  const up = voucher && voucher.bandwidthUp > 0 ? voucher.bandwidthUp : o.max_bandwidth_up;
  const down = voucher && voucher.bandwidthDown > 0 ? voucher.bandwidthDown : o.max_bandwidth_down;
  let remainingBytes: number | undefined;
  if (voucher?.bytesLeft !== undefined) remainingBytes = voucher.bytesLeft;
  else if (o.daily_bandwidth_cap > 0) remainingBytes = o.daily_bandwidth_cap - Math.max(0, input.usedToday ?? 0);
  const filter = o.content_filter === 1;
  const walledGarden: string[] = [];
  for (const host of [urlHost(settings.publicUrl), ...(settings.loginUrls ?? []).map(urlHost), ...hostList(o.whitelist)]) {
    if (host !== undefined && !walledGarden.includes(host)) walledGarden.push(host);
  }
  return {
    sessionSeconds,
    grantSeconds: voucher ? sessionSeconds : sessionSeconds > 0 ? sessionSeconds : DEFAULT_GRANT_SECONDS,
    idleSeconds: 0,
    upBytesPerSecond: Math.max(0, up),
    downBytesPerSecond: Math.max(0, down),
    dailyCap: Math.max(0, o.daily_bandwidth_cap),
    remainingBytes: remainingBytes === undefined ? undefined : Math.max(0, remainingBytes),
    spent: remainingBytes !== undefined && remainingBytes <= 0,
    interimInterval: settings.interimInterval,
    dns: filter ? [...(settings.contentFilterDns ?? DEFAULT_CONTENT_FILTER_DNS)] : dnsOf(o),
    filter,
    filterRole: filter ? CONTENT_FILTER_ROLE : "",
    walledGarden,
    blocked: hostList(o.blacklist),
  };
}

/** The settings of the service (config.ts) the policy reads; `loginUrls`: see loginUrlsOf. */
export function grantSettings(
  config: Pick<Config, "publicUrl" | "contentFilterDns"> & { radius: Pick<Config["radius"], "interimInterval"> },
  loginUrls?: readonly string[],
): GrantSettings {
  return { interimInterval: config.radius.interimInterval, contentFilterDns: config.contentFilterDns, publicUrl: config.publicUrl, loginUrls };
}

/**
 * The URLs a guest's browser must reach before login for the OAuth methods a campaign offers (those
 * configured on this service): each provider's authorize URL. SMS, e-mail, forms and vouchers are
 * served by the portal itself (the text goes out from the server), so they add nothing.
 */
export function loginUrlsOf(oauth: Config["oauth"], offered: Readonly<Record<string, boolean>>): string[] {
  const out: string[] = [];
  for (const [method, provider] of Object.entries(oauth)) {
    if (provider && offered[method]) out.push(provider.authorizeUrl, ...(OAUTH_PAGE_HOSTS[method] ?? []).map((h) => `https://${h}/`));
  }
  return out;
}

/**
 * Hosts a provider's sign-in page is known to load besides its authorize URL's own (scripts,
 * styles, the other domain or mobile site it may redirect to). A provider may change them; the
 * location's whitelist adds any other a venue finds it needs.
 */
const OAUTH_PAGE_HOSTS: Readonly<Record<string, readonly string[]>> = {
  facebook: ["facebook.com", "m.facebook.com", "static.xx.fbcdn.net"],
  twitter: ["x.com", "api.x.com", "abs.twimg.com"],
  instagram: ["www.instagram.com", "static.cdninstagram.com"],
  linkedin: ["static.licdn.com"],
};
