/**
 * EAP's settings (EAP-TTLS and EAP-TLS in the RADIUS server), read by src/radius-config.ts with
 * config.ts's readers so that every variable fails with the same kind of message. Read once at start.
 */
import type { ConfigReaders } from "./config-readers.js";
import { validPem } from "./radsec-config.js";

export interface EapConfig {
  /** EAP_METHODS: the methods offered, the first one proposed first (a peer that wants another says so with a Nak). */
  methods: ("ttls" | "tls")[];
  /** EAP_CERT / EAP_KEY (PEM files): the server's certificate (with its chain); unset: issued at start by the service CA. */
  serverCert: string | undefined;
  serverKey: string | undefined;
  /** EAP_FRAGMENT_SIZE: octets of TLS data per EAP packet (a Framed-MTU in the request lowers it). */
  fragmentSize: number;
  /** EAP_CONVERSATION_TIMEOUT: seconds a conversation may wait for the peer's next round. */
  conversationTimeoutSeconds: number;
  /** EAP_SESSION_CACHE_SECONDS: how long a TLS session can be resumed (EAP-TLS reauthentication without a full handshake). */
  sessionCacheSeconds: number;
  /** EAP_MAX_CONVERSATIONS: conversations in progress at most on one instance (each holds a TLS session). */
  maxConversations: number;
  /**
   * EAP_INSTANCE_ADDRESS: host:port where the other instances reach this instance's RADIUS
   * authentication port, to hand it the rounds of the conversations it holds (docs/radius.md).
   */
  instanceAddress: string | undefined;
}

export function eapConfig(read: ConfigReaders): EapConfig {
  const serverCert = read.fileText("EAP_CERT");
  const serverKey = read.fileText("EAP_KEY");
  validPem(read, "EAP_CERT", "EAP_KEY", serverCert, serverKey);
  const methods = read
    .str("EAP_METHODS", "ttls,tls")
    .split(",")
    .map((m) => m.trim().toLowerCase())
    .filter((m) => m !== "");
  for (const m of methods) if (m !== "ttls" && m !== "tls") read.fail(`EAP_METHODS must list ttls and/or tls, got "${m}"`);
  const instanceAddress = read.str("EAP_INSTANCE_ADDRESS", "");
  if (instanceAddress !== "" && !/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/.test(instanceAddress)) {
    read.fail(`EAP_INSTANCE_ADDRESS must be host:port, got "${instanceAddress}"`);
  }
  return {
    methods: methods as ("ttls" | "tls")[],
    serverCert,
    serverKey,
    fragmentSize: read.int("EAP_FRAGMENT_SIZE", 1024, 256, 4000),
    conversationTimeoutSeconds: read.int("EAP_CONVERSATION_TIMEOUT", 30, 5, 600),
    sessionCacheSeconds: read.int("EAP_SESSION_CACHE_SECONDS", 3600, 0, 86_400),
    maxConversations: read.int("EAP_MAX_CONVERSATIONS", 10_000, 1, 1_000_000),
    instanceAddress: instanceAddress === "" ? undefined : instanceAddress,
  };
}
