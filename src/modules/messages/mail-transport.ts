/**
 * E-mail through SMTP (nodemailer): a message is composed once into its MIME text (kept in the
 * outbox, so a retry sends the same bytes with the same Message-ID), then sent to the configured
 * server, DKIM-signed when a key is configured. smtps:// speaks TLS from the first byte; smtp://
 * upgrades with STARTTLS when the server offers it, and requires it when the URL has a user name
 * (a password never crosses the network in clear).
 */
import { randomBytes } from "node:crypto";
import { createTransport } from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
import type { MailConfig } from "../../config.js";

export interface MailContent {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and the like). */
  headers?: Record<string, string>;
  /** Images the HTML shows through cid: URLs. */
  inline?: { cid: string; filename: string; contentType: string; content: Buffer }[];
}

/** A Message-ID in the sender's domain, unique (the outbox id and random bits). */
export function newMessageId(cfg: MailConfig, outboxId: number | string): string {
  const domain = cfg.fromAddress.split("@")[1];
  return `<m${outboxId}.${randomBytes(9).toString("base64url")}@${domain}>`;
}

/** The whole message as it is sent (7-bit MIME text: non-ASCII parts are encoded). */
export async function composeMail(cfg: MailConfig, messageId: string, m: MailContent, at: Date = new Date()): Promise<string> {
  const composer = new MailComposer({
    from: cfg.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId,
    date: at,
    headers: m.headers,
    attachments: (m.inline ?? []).map((a) => ({ ...a, contentDisposition: "inline" })),
  });
  const raw = await composer.compile().build();
  return raw.toString("utf8");
}

export interface SendOutcome {
  ok: boolean;
  /** The server's last answer (250 ... queued as X), or the failure. */
  response: string;
  /** The SMTP reply code when the server gave one. */
  code: number | null;
  /** The server refused the message for good (5xx): no retry. */
  permanent: boolean;
}

export interface MailSender {
  send(to: string, raw: string): Promise<SendOutcome>;
  close(): void;
}

/** A sender over one SMTP connection per message, each phase bounded by `timeoutMs`. */
export function createMailSender(cfg: MailConfig, timeoutMs: number): MailSender {
  const transport = createTransport({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.secure,
    requireTLS: cfg.requireTls,
    auth: cfg.auth,
    tls: cfg.ca ? { ca: cfg.ca, servername: cfg.host } : { servername: cfg.host },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dkim: cfg.dkim,
  });
  return {
    async send(to, raw) {
      try {
        const info = await transport.sendMail({ envelope: { from: cfg.fromAddress, to: [to] }, raw });
        return { ok: true, response: String(info.response ?? "").slice(0, 255), code: 250, permanent: false };
      } catch (err) {
        const e = err as { responseCode?: number; response?: string; message?: string; code?: string };
        const code = typeof e.responseCode === "number" ? e.responseCode : null;
        // A refused recipient or message (5xx) is final; a refused login (EAUTH) is the operator's to fix, and is retried.
        const permanent = code !== null && code >= 500 && code < 600 && e.code !== "EAUTH";
        return { ok: false, response: (e.response ?? e.message ?? String(err)).slice(0, 255), code, permanent };
      }
    },
    close() {
      transport.close();
    },
  };
}
