/**
 * HTTP's settings (where it listens, its public URL, logging, bodies, proxies, the /metrics token),
 * read by config.ts with its readers so that every variable fails with the same kind of message.
 */
import { isIP } from "node:net";
import type { ConfigReaders } from "./config-readers.js";

export interface HttpConfig {
  host: string;
  port: number;
  /** Public base URL of this service: portal links and campaign_filename are built from it. */
  publicUrl: string;
  logLevel: string;
  /** LOG_REQUESTS: one info line per answered HTTP request (the access log). */
  logRequests: boolean;
  bodyLimit: number;
  /** Fastify's trustProxy: false, a list of proxy addresses/CIDRs, or true (every peer). */
  trustProxy: boolean | string;
  /** Bearer token GET /metrics requires; unset: it answers clients on this machine only. */
  metricsToken: string | undefined;
}

/**
 * Which peers may name the client in X-Forwarded-For: none (false), the listed proxy addresses or
 * CIDRs (the client is then the address the nearest untrusted hop saw, which nobody behind it can
 * forge), or every peer (true: the client's own entries count too, unless the proxy overwrites the
 * header). Handed to Fastify as is.
 */
function trustProxy(read: ConfigReaders): boolean | string {
  const raw = (read.optional("TRUST_PROXY") ?? "").trim();
  if (raw === "" || ["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
  if (["1", "true", "yes", "on"].includes(raw.toLowerCase())) return true;
  const entries = raw.split(",").map((e) => e.trim());
  const valid = (e: string) => {
    const [ip, bits, extra] = e.split("/");
    const v = isIP(ip);
    return v !== 0 && extra === undefined && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128)));
  };
  if (entries.every(valid)) return entries.join(",");
  read.fail(`TRUST_PROXY must be true, false, or a comma-separated list of proxy addresses or CIDRs, got "${raw}"`);
}

export function httpConfig(read: ConfigReaders): HttpConfig {
  const port = read.int("PORT", 3000, 0, 65535);
  const logLevel = read.str("LOG_LEVEL", "info");
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    read.fail(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const metricsToken = read.optional("METRICS_TOKEN");
  if (metricsToken !== undefined && (metricsToken.length < 16 || metricsToken.length > 256 || /\s/.test(metricsToken))) {
    read.fail("METRICS_TOKEN must be 16 to 256 characters without spaces");
  }
  return {
    host: read.str("HOST", "0.0.0.0"),
    port,
    publicUrl: read.url("PUBLIC_URL", `http://localhost:${port}`)!,
    logLevel,
    logRequests: read.bool("LOG_REQUESTS", true),
    bodyLimit: read.int("BODY_LIMIT", 65536, 1024, 10 * 1024 * 1024),
    trustProxy: trustProxy(read),
    metricsToken,
  };
}
