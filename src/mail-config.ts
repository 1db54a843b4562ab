/**
 * Outgoing e-mail's settings (SMTP_URL with MAIL_FROM, DKIM, a private CA), read by config.ts with
 * its readers so that every variable fails with the same kind of message.
 */
import { createPrivateKey } from "node:crypto";
import type { ConfigReaders } from "./config-readers.js";

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

/** SMTP_URL and MAIL_FROM, with DKIM and a private CA when configured. */
export function mailConfig(read: ConfigReaders): MailConfig | undefined {
  const raw = read.optional("SMTP_URL");
  const from = read.optional("MAIL_FROM");
  if (raw === undefined && from === undefined) {
    if (read.optional("MAIL_DKIM_PRIVATE_KEY_FILE")) read.fail("MAIL_DKIM_PRIVATE_KEY_FILE needs SMTP_URL and MAIL_FROM");
    return undefined;
  }
  if (raw === undefined || from === undefined) read.fail("SMTP_URL and MAIL_FROM must be set together");
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    read.fail("SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465");
  }
  if ((u.protocol !== "smtp:" && u.protocol !== "smtps:") || u.hostname === "") {
    read.fail("SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465");
  }
  const secure = u.protocol === "smtps:";
  const user = decodeURIComponent(u.username);
  const fromAddress = (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  if (!MAIL_ADDRESS.test(fromAddress)) read.fail(`MAIL_FROM must be an e-mail address or "Name <address>", got "${from}"`);
  const domainName = read.optional("MAIL_DKIM_DOMAIN");
  const keySelector = read.optional("MAIL_DKIM_SELECTOR");
  const privateKey = read.fileText("MAIL_DKIM_PRIVATE_KEY_FILE");
  if ((domainName || keySelector || privateKey) && !(domainName && keySelector && privateKey)) {
    read.fail("MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY_FILE must be set together");
  }
  if (privateKey !== undefined) {
    try {
      createPrivateKey(privateKey);
    } catch {
      read.fail("MAIL_DKIM_PRIVATE_KEY_FILE must hold a private key in PEM form");
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
    ca: read.fileText("SMTP_CA_FILE"),
  };
}
