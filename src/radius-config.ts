/**
 * The RADIUS server's settings, with RadSec's (src/radsec-config.ts) and EAP's (src/eap-config.ts),
 * read by config.ts with its readers so that every variable fails with the same kind of message.
 */
import type { ConfigReaders } from "./config-readers.js";
import { MAX_CREDENTIAL_TTL_SECONDS } from "./durations.js";
import { type EapConfig, eapConfig } from "./eap-config.js";
import { type RadsecConfig, radsecConfig } from "./radsec-config.js";

export interface RadiusConfig {
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
    /** RADIUS_SESSION_MEMO_ENTRIES: open sessions each server remembers (src/radius/session-memo.ts); 0: none. */
    sessionMemoEntries: number;
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
  /** EAP-TTLS and EAP-TLS in the RADIUS server: src/eap-config.ts. */
  eap: EapConfig;
}

/** `publicUrl`: the service's, whose host an issued RadSec server certificate names by default. */
export function radiusConfig(read: ConfigReaders, publicUrl: string): RadiusConfig {
  const radius: RadiusConfig["radius"] = {
    enabled: read.bool("RADIUS_ENABLED", true),
    host: read.str("RADIUS_HOST", "0.0.0.0"),
    databasePoolSize: read.int("DB_RADIUS_POOL_SIZE", 6, 0, 1000),
    authPort: read.int("RADIUS_AUTH_PORT", 1812, 0, 65535),
    acctPort: read.int("RADIUS_ACCT_PORT", 1813, 0, 65535),
    requireMessageAuthenticator: read.bool("RADIUS_REQUIRE_MESSAGE_AUTHENTICATOR", true),
    returningGuestDays: read.int("RADIUS_RETURNING_GUEST_DAYS", 30, 0, 3650),
    interimInterval: read.int("RADIUS_INTERIM_INTERVAL", 300, 60, 86400),
    sessionMemoEntries: read.int("RADIUS_SESSION_MEMO_ENTRIES", 250_000, 0, 10_000_000),
    credentialTtlSeconds: read.int("RADIUS_CREDENTIAL_TTL", 300, 10, MAX_CREDENTIAL_TTL_SECONDS),
    staleSessionHours: read.int("RADIUS_STALE_SESSION_HOURS", 24, 1, 8760),
    sessionRetentionDays: read.int("RADIUS_SESSION_RETENTION_DAYS", 90, 1, 3650),
    coaPort: read.int("RADIUS_COA_PORT", 0, 0, 65535),
    coaTimeoutMs: read.int("RADIUS_COA_TIMEOUT_MS", 1000, 50, 30000),
    coaAttempts: read.int("RADIUS_COA_ATTEMPTS", 3, 1, 10),
  };
  return { radius, radsec: radsecConfig(read, radius.host, publicUrl), eap: eapConfig(read) };
}
