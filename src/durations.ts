/** Lengths of time the code counts in, each defined once. */

export const DAY_SECONDS = 86_400;
export const DAY_MS = DAY_SECONDS * 1000;

/**
 * A guest's session where the location sets no limit (session_time_limit 0) and no voucher bounds
 * it: one day. Every front door that must name a length grants this (controllers, Meraki, openNDS).
 */
export const DEFAULT_SESSION_SECONDS = DAY_SECONDS;

/** The longest a one-time portal credential may live (the bound of RADIUS_CREDENTIAL_TTL). */
export const MAX_CREDENTIAL_TTL_SECONDS = DAY_SECONDS;
