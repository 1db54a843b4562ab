/**
 * A gateway's configuration, generated from what the service knows: the device (its MAC and
 * secret), its location's portal URL, the grant policy's answer for the location (walled garden,
 * DNS, filter, blocked hosts, rates) and where RADIUS listens. Each family writes its own file in
 * its folder (src/gateways/<family>/<family>.config.ts); the registry's FAMILY_CONFIGS finds it.
 * GET /api/get-device-config answers it; the gateway fetches it on a schedule from
 * `/gateway/config/<device id>/<key>/<file>` with a key derived from its secret (configKey).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { DeviceConfigFile } from "../modules/context.js";
import type { Grant } from "./grant-policy.js";

export interface DeviceConfigInput {
  device: { id: number; name: string; mac: string; secret: string; modelId: string };
  location: { id: number; name: string; portalUrl: string };
  grant: Grant;
  publicUrl: string;
  radius: { host: string; authPort: number; acctPort: number; coaPort: number; interimInterval: number };
  /** The URL the gateway fetches this file from (its key inside). */
  fetchUrl: string;
  /** Where the gateway fetches extra files of the family (MikroTik's login.html): fetchBase + "/" + name. */
  fetchBase: string;
  /** Minutes between the gateway's fetches. */
  pollMinutes: number;
}

export type { DeviceConfigFile } from "../modules/context.js";

export type DeviceConfigWriter = (input: DeviceConfigInput) => Omit<DeviceConfigFile, "warnings" | "family">;

/** Minutes between a gateway's fetches of its configuration: a change reaches it within this. */
export const CONFIG_POLL_MINUTES = 15;

/**
 * The key a gateway fetches its own configuration with: HMAC-SHA256 of its id under its RADIUS
 * secret, 32 hex digits. Only the service and the device know the secret; a rotated secret makes a
 * new key (the old configuration stops being served).
 */
export function configKey(secret: string, deviceId: number): string {
  return createHmac("sha256", secret).update(`guestwifi-config:${deviceId}`).digest("hex").slice(0, 32);
}

export function configKeyMatches(secret: string, deviceId: number, key: string): boolean {
  const want = Buffer.from(configKey(secret, deviceId));
  const got = Buffer.from(key);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The host gateways send RADIUS to: RADIUS_PUBLIC_HOST, else the host of PUBLIC_URL. */
export function radiusPublicHost(publicUrl: string, configured: string | undefined): string {
  if (configured) return configured;
  try {
    return new URL(publicUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return "";
  }
}

/** Whether a URL's host is one no gateway can reach: localhost or a loopback address. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "0:0:0:0:0:0:0:1";
}

/** The warning every front door gives (start, console, get-device-config) when PUBLIC_URL is loopback. */
export function loopbackWarning(publicUrl: string): string | undefined {
  return isLoopbackUrl(publicUrl)
    ? `PUBLIC_URL is ${publicUrl}, a localhost or loopback address that no gateway or guest can reach: set PUBLIC_URL to the address gateways reach this service at before copying these values into a gateway.`
    : undefined;
}

/** Hosts of the walled garden without the `*.` of wildcards: gateways that match a name and its subdomains take the bare name. */
export function suffixHosts(hosts: readonly string[]): string[] {
  const out: string[] = [];
  for (const h of hosts) {
    const bare = h.startsWith("*.") ? h.slice(2) : h;
    if (!out.includes(bare)) out.push(bare);
  }
  return out;
}
