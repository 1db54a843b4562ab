/**
 * Environment -> typed, validated, frozen configuration. The only module that reads process.env.
 * A bad value stops the start with a message naming the variable. Each area's settings are read and
 * checked by its own src/<area>-config.ts; this file puts them together.
 */
import { configReaders, type Env } from "./config-readers.js";
import { type DatabaseConfig, databaseConfig } from "./database-config.js";
import { type GatewayConfig, gatewayConfig } from "./gateway-config.js";
import { type HttpConfig, httpConfig } from "./http-config.js";
import { type MessagesConfig, messagesConfig } from "./messages-config.js";
import { type PasspointConfig, passpointConfig } from "./passpoint-config.js";
import { type PortalConfig, portalConfig } from "./portal-config.js";
import { type RadiusConfig, radiusConfig } from "./radius-config.js";
import { type RateLimitConfig, rateLimitConfig } from "./rate-limit-config.js";
import { type WebhookConfig, webhookConfig } from "./webhook-config.js";

export { ConfigError } from "./config-readers.js";
export type { MailConfig } from "./mail-config.js";
export type { OAuthProviderConfig } from "./portal-config.js";

const LISTEN_FAULTS: Record<string, string> = {
  EADDRINUSE: "the address is already in use (another process listens there)",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "the address is not one of this machine's",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name does not resolve",
  EAFNOSUPPORT: "this machine does not support that address family",
};

/** A listener could not bind: a sentence that names the configured address and the variables that set it. */
export class ListenError extends Error {
  constructor(what: string, host: string, port: number, protocol: "tcp" | "udp", variables: [string, string], cause: unknown) {
    const code = (cause as { code?: string } | undefined)?.code;
    const why = (code && LISTEN_FAULTS[code]) ?? (cause instanceof Error ? cause.message : String(cause));
    const where = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
    super(`${what} cannot listen on ${where}/${protocol}: ${why}. Check ${variables[0]} and ${variables[1]} (${variables[0]}=${host}, ${variables[1]}=${port}).`);
  }
}

export interface Config
  extends HttpConfig,
    DatabaseConfig,
    RateLimitConfig,
    PortalConfig,
    GatewayConfig,
    RadiusConfig,
    PasspointConfig,
    MessagesConfig,
    WebhookConfig {}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const read = configReaders(env);
  const http = httpConfig(read);
  const config: Config = {
    ...http,
    ...databaseConfig(read),
    ...rateLimitConfig(read),
    ...portalConfig(read),
    ...gatewayConfig(read),
    ...radiusConfig(read, http.publicUrl),
    ...passpointConfig(read),
    ...messagesConfig(read),
    ...webhookConfig(read),
  };
  return Object.freeze(config);
}
