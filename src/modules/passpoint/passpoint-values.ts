/**
 * The values of a Passpoint configuration, checked and normalised once: roaming consortium OIs
 * (IEEE 802.11u: 3 octets for an IEEE OUI, 5 for an OUI-36 / CID-based OI; as Android's
 * PasspointConfiguration and Apple's RoamingConsortiumOIs take them, hex digits), the NAI realm
 * (RFC 7542 section 2.2) and the home domain (a DNS name), and the usernames credentials get.
 */

/** What the console and the profiles accept as one OI: 6 or 10 hex digits (3 or 5 octets). */
const OI_RE = /^(?:[0-9A-F]{6}|[0-9A-F]{10})$/;
/** A DNS name of labels of letters, digits and hyphens (no leading or trailing hyphen), at least two labels. */
const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Passpoint allows at most this many OIs in a Home SP's list we hand out (Android keeps 36; iOS reads the list as given). */
export const MAX_OIS = 12;

/** "5a-03-ba-00-00, 004096" -> ["5A03BA0000", "004096"], or the sentence saying what is wrong. */
export function parseRoamingConsortium(text: string): { ois: string[] } | { problem: string } {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const ois: string[] = [];
  for (const part of parts) {
    const oi = part.replace(/[-:]/g, "").toUpperCase();
    if (!OI_RE.test(oi)) {
      return { problem: `The roaming_consortium OI "${part.slice(0, 32)}" must be 3 or 5 octets in hex (6 or 10 hex digits, e.g. 5A03BA0000).` };
    }
    if (!ois.includes(oi)) ois.push(oi);
  }
  if (ois.length > MAX_OIS) return { problem: `The roaming_consortium may list at most ${MAX_OIS} OIs.` };
  return { ois };
}

/** A domain or realm in lower case, or undefined when it is not a DNS name of two labels or more. */
export function dnsName(text: string): string | undefined {
  const name = text.trim().toLowerCase().replace(/\.$/, "");
  return DOMAIN_RE.test(name) ? name : undefined;
}

/** The prefix of every Passpoint username: RADIUS looks a User-Name up only when it has it. */
export const USERNAME_PREFIX = "pp-";

/** Whether a User-Name can be a Passpoint credential's (pp-...@realm). */
export function isPasspointUsername(userName: string): boolean {
  return userName.startsWith(USERNAME_PREFIX) && userName.includes("@");
}
