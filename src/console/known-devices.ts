/**
 * Browsers where an e-mail signed in to the console before: a cookie, signed by the service, that
 * lists (as keyed hashes, never the addresses themselves) up to KNOWN_MAX e-mails that signed in
 * from it within KNOWN_FOR_MS. Sign-in slows an e-mail down after too many attempts from anywhere
 * (someone guessing its password), but not in a browser it signed in from before: a stranger's
 * wrong guesses never lock the owner out.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { cookieOf } from "../http/cookies.js";

export const KNOWN_COOKIE = "gw_console_known";
/** How long a browser stays known after a sign-in. */
export const KNOWN_FOR_MS = 90 * 24 * 3600_000;
/** E-mails one browser remembers (an owner and a few sub-users sharing a desk). */
const KNOWN_MAX = 5;

interface Entry {
  /** Keyed hash of the e-mail. */
  e: string;
  /** When it last signed in here (ms). */
  t: number;
}

export class KnownDevices {
  private readonly key: Buffer;

  /** `root`: a secret of the service's (every instance on the database has the same). */
  constructor(root: Buffer) {
    this.key = createHmac("sha256", root).update("guestwifi-console:known-device").digest();
  }

  private mac(text: string): Buffer {
    return createHmac("sha256", this.key).update(text).digest();
  }

  private tag(mailbox: string): string {
    return this.mac(`e:${mailbox}`).subarray(0, 16).toString("base64url");
  }

  private entries(request: FastifyRequest, now: number): Entry[] {
    const raw = cookieOf(request, KNOWN_COOKIE);
    if (!raw || raw.length > 1024) return [];
    const dot = raw.indexOf(".");
    if (dot <= 0) return [];
    const body = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), "base64url");
    const expected = this.mac(`c:${body}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
    try {
      const list = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown;
      if (!Array.isArray(list)) return [];
      return list.filter((x): x is Entry => typeof x?.e === "string" && typeof x?.t === "number" && now - x.t < KNOWN_FOR_MS && x.t <= now);
    } catch {
      return [];
    }
  }

  /** Whether `mailbox` (the normalised e-mail) signed in from this browser within KNOWN_FOR_MS. */
  knows(request: FastifyRequest, mailbox: string, now = Date.now()): boolean {
    const tag = this.tag(mailbox);
    return this.entries(request, now).some((x) => x.e === tag);
  }

  /** The Set-Cookie value after `mailbox` signed in: it first, then the others this browser knew. */
  cookieAfterSignIn(request: FastifyRequest, mailbox: string, secure: boolean, now = Date.now()): string {
    const tag = this.tag(mailbox);
    const list = [{ e: tag, t: now }, ...this.entries(request, now).filter((x) => x.e !== tag)].slice(0, KNOWN_MAX);
    const body = Buffer.from(JSON.stringify(list), "utf8").toString("base64url");
    const value = `${body}.${this.mac(`c:${body}`).toString("base64url")}`;
    // Sent only to the console's own API (sign-in, identifier rotation), never to another site's request.
    return `${KNOWN_COOKIE}=${value}; Path=/console/api; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(KNOWN_FOR_MS / 1000)}${secure ? "; Secure" : ""}`;
  }
}
