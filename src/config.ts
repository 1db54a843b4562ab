import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from "./database-timeouts.js";

/**
 * Environment -> typed, validated, frozen configuration. The only module that reads process.env.
 * A bad value stops the start with a message naming the variable.
 */

import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { isAbsolute, resolve } from "node:path";
import { PROJECT_ROOT } from "./project-root.js";
import { MAX_CREDENTIAL_TTL_SECONDS } from "./durations.js";
import { type RadsecConfig, radsecConfig } from "./radsec-config.js";

export class ConfigError extends Error {}

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

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === "" ? fallback : v;
}

function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === "" ? undefined : v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/**
 * Which peers may name the client in X-Forwarded-For: none (false), the listed proxy addresses or
 * CIDRs (the client is then the address the nearest untrusted hop saw, which nobody behind it can
 * forge), or every peer (true: the client's own entries count too, unless the proxy overwrites the
 * header). Handed to Fastify as is.
 */
function trustProxy(env: Env): boolean | string {
  const raw = (env.TRUST_PROXY ?? "").trim();
  if (raw === "" || ["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
  if (["1", "true", "yes", "on"].includes(raw.toLowerCase())) return true;
  const entries = raw.split(",").map((e) => e.trim());
  const valid = (e: string) => {
    const [ip, bits, extra] = e.split("/");
    const v = isIP(ip);
    return v !== 0 && extra === undefined && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128)));
  };
  if (entries.every(valid)) return entries.join(",");
  throw new ConfigError(`TRUST_PROXY must be true, false, or a comma-separated list of proxy addresses or CIDRs, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string | undefined): string | undefined {
  const v = optional(env, name) ?? fallback;
  if (v === undefined) return undefined;
  try {
    const u = new URL(v);
    if (!["http:", "https:"].includes(u.protocol)) throw new Error();
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${v}"`);
  }
  return v.replace(/\/+$/, "");
}

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scope: string;
}

export interface Config {
  host: string;
  port: number;
  /** Public base URL of this service: portal links and campaign_filename are built from it. */
  publicUrl: string;
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
  databaseUrl: string;
  /** Bounds on every wait for the database (a stopped or silent database gives 503s, not hung requests). */
  databaseTimeouts: DatabaseTimeouts;
  /** DB_POOL_SIZE: PostgreSQL connections of HTTP, the portal and the background jobs. */
  databasePoolSize: number;
  logLevel: string;
  /** LOG_REQUESTS: one info line per answered HTTP request (the access log). */
  logRequests: boolean;
  bodyLimit: number;
  apiRateLimitPerMinute: number;
  /** Fastify's trustProxy: false, a list of proxy addresses/CIDRs, or true (every peer). */
  trustProxy: boolean | string;
  /** Key used to sign portal state (CSRF tokens, OAuth state). Random per process when not set. */
  portalSecret: string | undefined;
  /** Rate-limit counters in Redis (shared by every instance using it) instead of memory or PostgreSQL. */
  redisUrl: string | undefined;
  /** Prefix of every key this service writes in Redis, so several deployments can share one Redis. */
  redisPrefix: string;
  /** How long one rate-limit count may wait for Redis before the limit goes on from memory and Redis counts as degraded. */
  redisTimeoutMs: number;
  /** Portal login requests per client address (IPv4, or IPv6 /64) per minute; 0 = off. */
  portalLoginRateLimitPerMinute: number;
  /** Texts per client address, and per location, per minute. */
  portalSmsRateLimitPerMinute: number;
  /** Voucher codes tried per client address per minute (guessing is pointless at this rate); 0 turns it off. */
  portalVoucherTriesPerMinute: number;
  /**
   * CoovaChilli `uamsecret` shared by every Coova gateway of this service. When set, the portal
   * requires and verifies `md` on gateway redirects and uses it to encode the logon password.
   */
  coovaUamSecret: string | undefined;
  /** Bearer token GET /metrics requires; unset: it answers clients on this machine only. */
  metricsToken: string | undefined;
  radius: {
    enabled: boolean;
    host: string;
    /**
     * DB_RADIUS_POOL_SIZE: PostgreSQL connections of RADIUS alone, so that a burst of packets never
     * takes the connections HTTP and the portal need; 0 shares theirs.
     */
    databasePoolSize: number;
    authPort: number;
    acctPort: number;
    requireMessageAuthenticator: boolean;
    returningGuestDays: number;
    interimInterval: number;
    credentialTtlSeconds: number;
    /** An open session with no accounting for this long is closed (the gateway will not report it any more). */
    staleSessionHours: number;
    /** Closed sessions are deleted this long after they ended. */
    sessionRetentionDays: number;
    /** UDP port CoA and Disconnect requests go to; 0: the gateway family's own (3799 for most). */
    coaPort: number;
    /** How long the first CoA/Disconnect attempt waits for an answer; each retry waits twice as long. */
    coaTimeoutMs: number;
    /** Attempts of one CoA/Disconnect request before it is recorded as unanswered. */
    coaAttempts: number;
  };
  /** RADIUS over TLS (RFC 6614): src/radsec-config.ts. */
  radsec: RadsecConfig;
  oauth: Partial<Record<"facebook" | "twitter" | "instagram" | "linkedin", OAuthProviderConfig>>;
  twilio: { baseUrl: string; accountSid: string; authToken: string; from: string } | undefined;
  smsCodeTtlSeconds: number;
  smsMaxAttempts: number;
  /** Texts a location may send per local day, counted in the database. */
  smsDailyBudgetPerLocation: number;
  /**
   * SECRET_BOX_KEY: the AES-256 key (32 bytes, base64 or hex) that seals controller credentials at
   * rest. Unset: one is generated once and kept in the database's service_secrets table.
   */
  secretBoxKey: Buffer | undefined;
  /** Bound on each call to a UniFi or Omada controller (CONTROLLER_TIMEOUT_MS). */
  controllerTimeoutMs: number;
  /** CONTROLLER_ALLOW_PRIVATE: controllers on private and loopback addresses allowed (link-local never). */
  controllerAllowPrivate: boolean;
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE: targets on private and loopback addresses allowed (link-local never). */
    allowPrivate: boolean;
    /** WEBHOOK_WORKER: this instance sends deliveries (the outbox is filled either way). */
    worker: boolean;
    /** Bound on one HTTP attempt (WEBHOOK_TIMEOUT_MS). */
    timeoutMs: number;
    /** First retry after this long, doubling each time up to an hour (WEBHOOK_RETRY_BASE_MS). */
    retryBaseMs: number;
    /** A delivery still failing this long after its event is marked failed (WEBHOOK_RETRY_FOR_MS, 24 h). */
    retryForMs: number;
    /** How often the outbox is read when idle (WEBHOOK_POLL_MS). */
    pollMs: number;
  };
  /** How often the retention job looks for guests to erase (RETENTION_INTERVAL_MS; 0: never, in this instance). */
  retentionIntervalMs: number;
  /** Outgoing e-mail (SMTP_URL with MAIL_FROM); undefined: this service sends no e-mail. */
  mail: MailConfig | undefined;
  /** The message outbox: e-mails and texts (docs/messages.md). */
  messages: {
    /** MESSAGE_WORKER: this instance sends messages and runs the schedules (every instance fills the outbox). */
    worker: boolean;
    /** E-mails sent per minute across every instance (MAIL_RATE_PER_MINUTE). */
    mailRatePerMinute: number;
    /** Marketing texts sent per minute across every instance (SMS_RATE_PER_MINUTE). */
    smsRatePerMinute: number;
    /** Bound on one attempt (MESSAGE_TIMEOUT_MS). */
    timeoutMs: number;
    /** First retry after this long, doubling each time up to an hour (MESSAGE_RETRY_BASE_MS). */
    retryBaseMs: number;
    /** A message still failing this long after it was due is marked failed (MESSAGE_RETRY_FOR_MS). */
    retryForMs: number;
    /** How often the outbox is read when idle (MESSAGE_POLL_MS). */
    pollMs: number;
    /** How often quick reports, absence and birthday messages are looked for (MESSAGE_SCHEDULE_INTERVAL_MS; 0: never, here). */
    scheduleIntervalMs: number;
    /** Local hour (0-23) the quick reports of the day before go out (QUICK_REPORT_HOUR). */
    quickReportHour: number;
  };
}

export interface MailConfig {
  host: string;
  port: number;
  /** smtps: TLS from the first byte; smtp: STARTTLS when offered, required when the URL has a user name. */
  secure: boolean;
  requireTls: boolean;
  auth: { user: string; pass: string } | undefined;
  /** MAIL_FROM as written ("Venue <news@example.com>" or an address). */
  from: string;
  /** The address of MAIL_FROM: the envelope sender, and the domain of Message-IDs. */
  fromAddress: string;
  /** MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and the PEM of MAIL_DKIM_PRIVATE_KEY_FILE. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | undefined;
  /** SMTP_CA_FILE: certificates of a private CA that the server's certificate is checked against. */
  ca: string | undefined;
}

const MAIL_ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

function fileText(env: Env, name: string): string | undefined {
  const path = optional(env, name);
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`${name} names a file that cannot be read (${path}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** SMTP_URL and MAIL_FROM, with DKIM and a private CA when configured. */
function mailConfig(env: Env): MailConfig | undefined {
  const raw = optional(env, "SMTP_URL");
  const from = optional(env, "MAIL_FROM");
  if (raw === undefined && from === undefined) {
    if (optional(env, "MAIL_DKIM_PRIVATE_KEY_FILE")) throw new ConfigError("MAIL_DKIM_PRIVATE_KEY_FILE needs SMTP_URL and MAIL_FROM");
    return undefined;
  }
  if (raw === undefined || from === undefined) throw new ConfigError("SMTP_URL and MAIL_FROM must be set together");
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError("SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465");
  }
  if ((u.protocol !== "smtp:" && u.protocol !== "smtps:") || u.hostname === "") {
    throw new ConfigError("SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465");
  }
  const secure = u.protocol === "smtps:";
  const user = decodeURIComponent(u.username);
  const fromAddress = (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  if (!MAIL_ADDRESS.test(fromAddress)) throw new ConfigError(`MAIL_FROM must be an e-mail address or "Name <address>", got "${from}"`);
  const domainName = optional(env, "MAIL_DKIM_DOMAIN");
  const keySelector = optional(env, "MAIL_DKIM_SELECTOR");
  const privateKey = fileText(env, "MAIL_DKIM_PRIVATE_KEY_FILE");
  if ((domainName || keySelector || privateKey) && !(domainName && keySelector && privateKey)) {
    throw new ConfigError("MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY_FILE must be set together");
  }
  if (privateKey !== undefined) {
    try {
      createPrivateKey(privateKey);
    } catch {
      throw new ConfigError("MAIL_DKIM_PRIVATE_KEY_FILE must hold a private key in PEM form");
    }
  }
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port === "" ? (secure ? 465 : 587) : Number(u.port),
    secure,
    requireTls: !secure && user !== "",
    auth: user === "" ? undefined : { user, pass: decodeURIComponent(u.password) },
    from,
    fromAddress,
    dkim: privateKey !== undefined ? { domainName: domainName!, keySelector: keySelector!, privateKey } : undefined,
    ca: fileText(env, "SMTP_CA_FILE"),
  };
}

/** A comma-separated list of IP addresses, or undefined when unset. */
function ipList(env: Env, name: string): string[] | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const ips = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (ips.length === 0 || ips.length > 4 || !ips.every((ip) => isIP(ip) !== 0)) {
    throw new ConfigError(`${name} must be one to four IP addresses separated by commas, e.g. 1.1.1.3,1.0.0.3`);
  }
  return ips;
}

/** A host name or IP address a gateway can be told to reach, or undefined when unset. */
function hostName(env: Env, name: string): string | undefined {
  const raw = optional(env, name)?.trim();
  if (raw === undefined || raw === "") return undefined;
  const bare = raw.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 0 && !/^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(bare)) {
    throw new ConfigError(`${name} must be a host name or an IP address, got "${raw}"`);
  }
  return bare;
}

/** A 32-byte key written as 64 hex digits or as base64 (url-safe or not). */
function key32(env: Env, name: string): Buffer | undefined {
  const raw = optional(env, name)?.trim();
  if (raw === undefined) return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64")
      : undefined;
  if (key?.length !== 32) throw new ConfigError(`${name} must be 32 bytes written as 64 hex digits or as base64`);
  return key;
}

const OAUTH_DEFAULTS: Record<keyof Config["oauth"], Omit<OAuthProviderConfig, "clientId" | "clientSecret">> = {
  facebook: {
    authorizeUrl: "https://www.facebook.com/v19.0/dialog/oauth",
    tokenUrl: "https://graph.facebook.com/v19.0/oauth/access_token",
    userinfoUrl: "https://graph.facebook.com/me?fields=id,name,email,first_name,last_name,gender,locale,picture",
    scope: "public_profile email",
  },
  twitter: {
    authorizeUrl: "https://twitter.com/i/oauth2/authorize",
    tokenUrl: "https://api.twitter.com/2/oauth2/token",
    userinfoUrl: "https://api.twitter.com/2/users/me",
    scope: "users.read tweet.read",
  },
  instagram: {
    authorizeUrl: "https://api.instagram.com/oauth/authorize",
    tokenUrl: "https://api.instagram.com/oauth/access_token",
    userinfoUrl: "https://graph.instagram.com/me?fields=id,username",
    scope: "user_profile",
  },
  linkedin: {
    authorizeUrl: "https://www.linkedin.com/oauth/v2/authorization",
    tokenUrl: "https://www.linkedin.com/oauth/v2/accessToken",
    userinfoUrl: "https://api.linkedin.com/v2/userinfo",
    scope: "openid profile email",
  },
};

function oauthProvider(env: Env, key: keyof Config["oauth"]): OAuthProviderConfig | undefined {
  const P = key.toUpperCase();
  const clientId = optional(env, `${P}_CLIENT_ID`);
  const clientSecret = optional(env, `${P}_CLIENT_SECRET`);
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    throw new ConfigError(`${P}_CLIENT_ID and ${P}_CLIENT_SECRET must be set together`);
  }
  const d = OAUTH_DEFAULTS[key];
  return {
    clientId,
    clientSecret,
    authorizeUrl: url(env, `${P}_AUTHORIZE_URL`, d.authorizeUrl)!,
    tokenUrl: url(env, `${P}_TOKEN_URL`, d.tokenUrl)!,
    userinfoUrl: url(env, `${P}_USERINFO_URL`, d.userinfoUrl)!,
    scope: str(env, `${P}_SCOPE`, d.scope),
  };
}

/**
 * A relative SQLite path names a file in the installation's directory (where package.json is), not
 * in the current directory: the service and every `guestwifi` command find the same database from
 * wherever they are run (the default is <install>/data/guestwifi.db).
 */
function sqliteRelativeToInstall(url: string): string {
  if (!url.startsWith("sqlite:")) return url;
  const file = url.slice("sqlite:".length);
  if (file === "" || file === ":memory:" || isAbsolute(file)) return url;
  return `sqlite:${resolve(PROJECT_ROOT, file)}`;
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = int(env, "PORT", 3000, 0, 65535);
  const databaseUrl = sqliteRelativeToInstall(str(env, "DATABASE_URL", "sqlite:./data/guestwifi.db"));
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  const logLevel = str(env, "LOG_LEVEL", "info");
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  const twilioSid = optional(env, "TWILIO_ACCOUNT_SID");
  const twilioToken = optional(env, "TWILIO_AUTH_TOKEN");
  const twilioFrom = optional(env, "TWILIO_FROM");
  if ((twilioSid || twilioToken || twilioFrom) && !(twilioSid && twilioToken && twilioFrom)) {
    throw new ConfigError("TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together");
  }
  const oauth: Config["oauth"] = {};
  for (const k of Object.keys(OAUTH_DEFAULTS) as (keyof Config["oauth"])[]) {
    const p = oauthProvider(env, k);
    if (p) oauth[k] = p;
  }
  const portalSecret = optional(env, "PORTAL_SECRET");
  if (portalSecret !== undefined && portalSecret.length < 16) {
    throw new ConfigError("PORTAL_SECRET must be at least 16 characters");
  }
  const coovaUamSecret = optional(env, "COOVA_UAM_SECRET");
  if (coovaUamSecret !== undefined && coovaUamSecret.length > 128) {
    throw new ConfigError("COOVA_UAM_SECRET may be at most 128 characters");
  }
  const redisUrl = optional(env, "REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const redisPrefix = str(env, "REDIS_PREFIX", "guestwifi:");
  if (!/^[\w:.-]{1,64}$/.test(redisPrefix)) throw new ConfigError("REDIS_PREFIX must be 1 to 64 letters, digits, _ : . or -");
  const metricsToken = optional(env, "METRICS_TOKEN");
  if (metricsToken !== undefined && (metricsToken.length < 16 || metricsToken.length > 256 || /\s/.test(metricsToken))) {
    throw new ConfigError("METRICS_TOKEN must be 16 to 256 characters without spaces");
  }
  const config: Config = {
    host: str(env, "HOST", "0.0.0.0"),
    port,
    publicUrl: url(env, "PUBLIC_URL", `http://localhost:${port}`)!,
    radiusPublicHost: hostName(env, "RADIUS_PUBLIC_HOST"),
    contentFilterDns: ipList(env, "CONTENT_FILTER_DNS"),
    databaseUrl,
    databaseTimeouts: {
      acquireMs: int(env, "DB_ACQUIRE_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.acquireMs, 100, 600_000),
      connectMs: int(env, "DB_CONNECT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.connectMs, 100, 600_000),
      statementMs: int(env, "DB_STATEMENT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.statementMs, 100, 3_600_000),
    },
    databasePoolSize: int(env, "DB_POOL_SIZE", 10, 1, 1000),
    logLevel,
    logRequests: bool(env, "LOG_REQUESTS", true),
    bodyLimit: int(env, "BODY_LIMIT", 65536, 1024, 10 * 1024 * 1024),
    apiRateLimitPerMinute: int(env, "API_RATE_LIMIT_PER_MINUTE", 0, 0, 10_000_000),
    trustProxy: trustProxy(env),
    portalSecret,
    portalLoginRateLimitPerMinute: int(env, "PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE", 600, 0, 1_000_000),
    portalSmsRateLimitPerMinute: int(env, "PORTAL_SMS_RATE_LIMIT_PER_MINUTE", 10, 1, 1_000_000),
    portalVoucherTriesPerMinute: int(env, "PORTAL_VOUCHER_TRIES_PER_MINUTE", 10, 0, 1_000_000),
    coovaUamSecret,
    metricsToken,
    redisUrl,
    redisPrefix,
    redisTimeoutMs: int(env, "REDIS_TIMEOUT_MS", 500, 10, 60_000),
    radius: {
      enabled: bool(env, "RADIUS_ENABLED", true),
      host: str(env, "RADIUS_HOST", "0.0.0.0"),
      databasePoolSize: int(env, "DB_RADIUS_POOL_SIZE", 6, 0, 1000),
      authPort: int(env, "RADIUS_AUTH_PORT", 1812, 0, 65535),
      acctPort: int(env, "RADIUS_ACCT_PORT", 1813, 0, 65535),
      requireMessageAuthenticator: bool(env, "RADIUS_REQUIRE_MESSAGE_AUTHENTICATOR", true),
      returningGuestDays: int(env, "RADIUS_RETURNING_GUEST_DAYS", 30, 0, 3650),
      interimInterval: int(env, "RADIUS_INTERIM_INTERVAL", 300, 60, 86400),
      credentialTtlSeconds: int(env, "RADIUS_CREDENTIAL_TTL", 300, 10, MAX_CREDENTIAL_TTL_SECONDS),
      staleSessionHours: int(env, "RADIUS_STALE_SESSION_HOURS", 24, 1, 8760),
      sessionRetentionDays: int(env, "RADIUS_SESSION_RETENTION_DAYS", 90, 1, 3650),
      coaPort: int(env, "RADIUS_COA_PORT", 0, 0, 65535),
      coaTimeoutMs: int(env, "RADIUS_COA_TIMEOUT_MS", 1000, 50, 30000),
      coaAttempts: int(env, "RADIUS_COA_ATTEMPTS", 3, 1, 10),
    },
    radsec: radsecConfig(
      {
        str: (name, fallback) => str(env, name, fallback),
        int: (name, fallback, min, max) => int(env, name, fallback, min, max),
        bool: (name, fallback) => bool(env, name, fallback),
        fileText: (name) => fileText(env, name),
        fail: (message) => {
          throw new ConfigError(message);
        },
      },
      str(env, "RADIUS_HOST", "0.0.0.0"),
      url(env, "PUBLIC_URL", `http://localhost:${port}`)!,
    ),
    oauth,
    twilio:
      twilioSid && twilioToken && twilioFrom
        ? {
            baseUrl: url(env, "TWILIO_API_BASE_URL", "https://api.twilio.com")!,
            accountSid: twilioSid,
            authToken: twilioToken,
            from: twilioFrom,
          }
        : undefined,
    smsCodeTtlSeconds: int(env, "SMS_CODE_TTL", 600, 30, 86400),
    smsMaxAttempts: int(env, "SMS_MAX_ATTEMPTS", 5, 1, 100),
    smsDailyBudgetPerLocation: int(env, "SMS_DAILY_BUDGET_PER_LOCATION", 300, 1, 1_000_000),
    secretBoxKey: key32(env, "SECRET_BOX_KEY"),
    controllerTimeoutMs: int(env, "CONTROLLER_TIMEOUT_MS", 8000, 500, 120_000),
    controllerAllowPrivate: bool(env, "CONTROLLER_ALLOW_PRIVATE", false),
    webhooks: {
      allowPrivate: bool(env, "WEBHOOK_ALLOW_PRIVATE", false),
      worker: bool(env, "WEBHOOK_WORKER", true),
      timeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 10_000, 100, 120_000),
      retryBaseMs: int(env, "WEBHOOK_RETRY_BASE_MS", 10_000, 10, 3_600_000),
      retryForMs: int(env, "WEBHOOK_RETRY_FOR_MS", 24 * 3_600_000, 100, 30 * 24 * 3_600_000),
      pollMs: int(env, "WEBHOOK_POLL_MS", 1000, 10, 60_000),
    },
    retentionIntervalMs: int(env, "RETENTION_INTERVAL_MS", 3_600_000, 0, 7 * 24 * 3_600_000),
    mail: mailConfig(env),
    messages: {
      worker: bool(env, "MESSAGE_WORKER", true),
      mailRatePerMinute: int(env, "MAIL_RATE_PER_MINUTE", 60, 1, 1_000_000),
      smsRatePerMinute: int(env, "SMS_RATE_PER_MINUTE", 30, 1, 1_000_000),
      timeoutMs: int(env, "MESSAGE_TIMEOUT_MS", 30_000, 100, 300_000),
      retryBaseMs: int(env, "MESSAGE_RETRY_BASE_MS", 60_000, 10, 3_600_000),
      retryForMs: int(env, "MESSAGE_RETRY_FOR_MS", 48 * 3_600_000, 100, 30 * 24 * 3_600_000),
      pollMs: int(env, "MESSAGE_POLL_MS", 1000, 10, 60_000),
      scheduleIntervalMs: int(env, "MESSAGE_SCHEDULE_INTERVAL_MS", 60_000, 0, 24 * 3_600_000),
      quickReportHour: int(env, "QUICK_REPORT_HOUR", 7, 0, 23),
    },
  };
  return Object.freeze(config);
}
