/**
 * Whether a guest opted in to marketing at a login: the one rule (docs/guest-data.md), read by the
 * login writer for the login's and the guest's consent columns and for the guest.login event's
 * personal fields. The portal only reports what the page showed and what was ticked.
 */

/** What a login's page showed and what the guest ticked (the portal reports it; LoginInput.consent). */
export interface LoginConsent {
  termsAccepted: boolean;
  /** The version of the terms text shown (loginConsent in the portal), "" when not accepted. */
  termsVersion: string;
  /** The page offered the marketing box: the campaign shows it and the login method's form has consent boxes. */
  marketingOffered: boolean;
  /** The guest ticked a box named marketing_opt_in (as posted: a page that did not offer it may still be sent one). */
  marketingTicked: boolean;
  /** The version of the marketing text shown, when offered. */
  marketingVersion: string;
}

export interface MarketingDecision {
  /** The login records a marketing choice, replacing the guest's latest one; without it the earlier choice stays. */
  decided: boolean;
  /** The guest is opted in by this login. */
  optedIn: boolean;
  /** The version of the text the choice was made on ("" when not decided). */
  version: string;
}

/**
 * A guest is opted in only when the page offered the (never pre-ticked, never required) box and the
 * guest ticked it. A page that offered it and got no tick records a withdrawal; a login whose page
 * did not offer it (or that had no consent step) records no choice, and a posted tick is ignored.
 */
export function marketingDecision(consent: LoginConsent | undefined): MarketingDecision {
  if (!consent?.marketingOffered) return { decided: false, optedIn: false, version: "" };
  return { decided: true, optedIn: consent.marketingTicked, version: consent.marketingVersion.slice(0, 64) };
}
