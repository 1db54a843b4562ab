/**
 * What the service tells and asks of gateways (the RADIUS host they are given, the filtering DNS,
 * Coova's shared secret, the UniFi and Omada controllers), read by config.ts with its readers so
 * that every variable fails with the same kind of message.
 */
import { isIP } from "node:net";
import type { ConfigReaders } from "./config-readers.js";

export interface GatewayConfig {
  /**
   * RADIUS_PUBLIC_HOST: the name or address gateways send RADIUS to (shown in the console and written
   * into generated gateway configurations); undefined: the host of PUBLIC_URL.
   */
  radiusPublicHost: string | undefined;
  /**
   * CONTENT_FILTER_DNS: the filtering resolvers guests of a location with content_filter on get
   * (comma-separated IP addresses); undefined: the grant policy's default pair (src/gateways/grant-policy.ts).
   */
  contentFilterDns: string[] | undefined;
  /**
   * CoovaChilli `uamsecret` shared by every Coova gateway of this service. When set, the portal
   * requires and verifies `md` on gateway redirects and uses it to encode the logon password.
   */
  coovaUamSecret: string | undefined;
  /** Bound on each call to a UniFi or Omada controller (CONTROLLER_TIMEOUT_MS). */
  controllerTimeoutMs: number;
  /** CONTROLLER_ALLOW_PRIVATE: controllers on private and loopback addresses allowed (link-local never). */
  controllerAllowPrivate: boolean;
}

/** A comma-separated list of IP addresses, or undefined when unset. */
function ipList(read: ConfigReaders, name: string): string[] | undefined {
  const raw = read.optional(name);
  if (raw === undefined) return undefined;
  const ips = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (ips.length === 0 || ips.length > 4 || !ips.every((ip) => isIP(ip) !== 0)) {
    read.fail(`${name} must be one to four IP addresses separated by commas, e.g. 1.1.1.3,1.0.0.3`);
  }
  return ips;
}

/** A host name or IP address a gateway can be told to reach, or undefined when unset. */
function hostName(read: ConfigReaders, name: string): string | undefined {
  const raw = read.optional(name)?.trim();
  if (raw === undefined || raw === "") return undefined;
  const bare = raw.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 0 && !/^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(bare)) {
    read.fail(`${name} must be a host name or an IP address, got "${raw}"`);
  }
  return bare;
}

export function gatewayConfig(read: ConfigReaders): GatewayConfig {
  const coovaUamSecret = read.optional("COOVA_UAM_SECRET");
  if (coovaUamSecret !== undefined && coovaUamSecret.length > 128) {
    read.fail("COOVA_UAM_SECRET may be at most 128 characters");
  }
  return {
    radiusPublicHost: hostName(read, "RADIUS_PUBLIC_HOST"),
    contentFilterDns: ipList(read, "CONTENT_FILTER_DNS"),
    coovaUamSecret,
    controllerTimeoutMs: read.int("CONTROLLER_TIMEOUT_MS", 8000, 500, 120_000),
    controllerAllowPrivate: read.bool("CONTROLLER_ALLOW_PRIVATE", false),
  };
}
