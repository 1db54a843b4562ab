/**
 * The rules a service can find broken once its inputs are valid, one catalogue for every caller.
 * Services throw these; the API maps each to its parameter and sentence (src/http/api-errors.ts),
 * the portal and the command line to their own words. Nothing here knows about HTTP.
 */

export type DomainErrorCode = "mac-taken" | "email-taken" | "no-login-method" | "location-gone";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const domainErrors = {
  /** Another device (of any account) has this MAC: RADIUS and the portal find access points by it. */
  macTaken: () => new DomainError("mac-taken", "A device with this MAC address is registered already."),
  /** Another sub-user (of any account) has this e-mail address. */
  emailTaken: () => new DomainError("email-taken", "A sub-user with this e-mail address exists already."),
  /** A campaign page without any login method would strand every guest at the access point. */
  noLoginMethod: () => new DomainError("no-login-method", "A campaign must leave at least one login method enabled."),
  /** The location a write relies on was deleted (or never was the account's) by the time it wrote. */
  locationGone: () => new DomainError("location-gone", "The location is not a live location of the account."),
};
