/**
 * One-time credentials the portal hands to a gateway after a guest logged in (CoovaChilli's
 * logon URL, a Meraki sign-on POST, ...). The gateway sends them back in an Access-Request and the
 * RADIUS server accepts each one once, before it expires. Contract in docs/radius.md.
 */
import { READABLE_ALPHABET, randomString } from "../random-text.js";
import type { Insertable } from "kysely";
import type { DB } from "../db/database.js";
import type { PortalCredentialsTable } from "../db/schema.js";
import { toDbDatetime } from "../db/time.js";
import { MAX_CREDENTIAL_TTL_SECONDS } from "../durations.js";
import { MAC_RE, canonicalMac } from "../mac-address.js";
import type { LoginCompanion } from "../modules/guests/login-input.js";
import type { RadiusRepository } from "./radius.repository.js";

export interface IssueCredentialInput {
  guestId: number;
  locationId: number;
  /** The access point the guest came through, when the portal knows it (then only that AP may use it). */
  deviceId: number | null;
  /** The guest's MAC as the gateway reported it, or "" (when given, the Access-Request must come from it). */
  clientMac: string;
  /** Lifetime; the portal passes config.radius.credentialTtlSeconds. */
  ttlSeconds: number;
  /** Issue time (tests); now by default. */
  at?: Date;
}

export interface PortalCredential {
  username: string;
  password: string;
}

const PASSWORD_ALPHABET = READABLE_ALPHABET;
const USERNAME_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
export const PASSWORD_LENGTH = 16;
const USERNAME_RANDOM_LENGTH = 16;
const USERNAME_PREFIX = "gw-";

/** Whether a User-Name can be a portal credential at all (RADIUS skips the lookup for MACs). */
export function isCredentialUsername(userName: string): boolean {
  return userName.startsWith(USERNAME_PREFIX);
}

function positiveInt(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw new TypeError(`${name} must be a positive integer`);
  return v;
}

/**
 * Creates a credential: username "gw-" + 16 random characters (80 bits), password 16 random
 * characters (about 93 bits; 16 octets is one PAP block, which CoovaChilli's UAM encoding needs).
 * Throws TypeError on invalid input; the portal validates before calling.
 */
export async function issueCredential(ctx: { db: DB; radius: RadiusRepository }, input: IssueCredentialInput): Promise<PortalCredential> {
  const guestId = positiveInt("guestId", input.guestId);
  const { credential, row } = newCredential(input);
  await ctx.radius.insertCredential(ctx.db, { ...row, guest_id: guestId });
  return credential;
}

/** A credential's row but for its guest. */
export type CredentialRow = Omit<Insertable<PortalCredentialsTable>, "guest_id">;

/**
 * Stores the credential with the login that creates its guest: recordLogin runs this write in the
 * login's transaction (on PostgreSQL, in its one statement), so a login that answered always has
 * its credential. The table stays this module's: its SQL is the RADIUS repository's.
 */
export function credentialWithLogin(radius: RadiusRepository, row: CredentialRow): LoginCompanion {
  const values = { ...row } as Record<string, unknown>;
  const cols = Object.keys(values);
  return {
    shape: `portal_credentials:${cols.join(",")}`,
    values,
    cte: (p) => radius.credentialCte(p, cols),
    write: (trx, guestId) => radius.insertCredential(trx, { ...row, guest_id: guestId }),
  };
}

/**
 * A new credential and its row without the guest, for the portal to store with the login that
 * creates the guest (credentialWithLogin). Checks as issueCredential does (guestId is not needed).
 */
export function newCredential(input: Omit<IssueCredentialInput, "guestId">): { credential: PortalCredential; row: CredentialRow } {
  const locationId = positiveInt("locationId", input.locationId);
  const deviceId = input.deviceId === null ? null : positiveInt("deviceId", input.deviceId);
  if (!Number.isInteger(input.ttlSeconds) || input.ttlSeconds < 1 || input.ttlSeconds > MAX_CREDENTIAL_TTL_SECONDS) {
    throw new TypeError(`ttlSeconds must be an integer between 1 and ${MAX_CREDENTIAL_TTL_SECONDS}`);
  }
  if (input.clientMac !== "" && !MAC_RE.test(input.clientMac)) throw new TypeError("clientMac must be a MAC address or empty");
  const at = input.at ?? new Date();
  const credential = {
    username: `${USERNAME_PREFIX}${randomString(USERNAME_ALPHABET, USERNAME_RANDOM_LENGTH)}`,
    password: randomString(PASSWORD_ALPHABET, PASSWORD_LENGTH),
  };
  return {
    credential,
    row: {
      ...credential,
      location_id: locationId,
      device_id: deviceId,
      client_mac: input.clientMac === "" ? "" : canonicalMac(input.clientMac),
      created_at: toDbDatetime(at),
      expires_at: toDbDatetime(new Date(at.getTime() + input.ttlSeconds * 1000)),
      used_at: null,
    },
  };
}
