/**
 * Per-guest Passpoint credentials: issued after a portal login at a covered location, bound to the
 * guest, valid for the configuration's credential_days, revoked by the console, the API or the
 * guest's erasure. Two kinds:
 *  - ttls: username@realm and a random password for EAP-TTLS with PAP inside (RFC 5281). Only a
 *    salted HMAC-SHA256 of the password is kept: PAP hands RADIUS the cleartext, which is checked
 *    against it; the password is 128 random bits, so a slow hash would buy nothing and cost every
 *    authentication milliseconds of CPU.
 *  - tls: a client certificate for EAP-TLS (RFC 5216) issued by the service CA, its common name the
 *    username; only its public part is kept, the key goes to the guest's device in the profile.
 * Every credential of a guest carries the same Chargeable-User-Identity (RFC 4372): random, opaque,
 * so a gateway can tell one guest across MAC addresses without learning who it is.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../../config.js";
import type { DB } from "../../db/database.js";
import { fromDbDatetime, toDbDatetime } from "../../db/time.js";
import { randomString } from "../../random-text.js";
import type { Ctx } from "../context.js";
import { issueCertificate, pkcs12Bundle } from "../device-certificates/certificate-authority.js";
import { serviceCa } from "../device-certificates/device-certificates.service.js";
import { USERNAME_PREFIX } from "./passpoint-values.js";
import { type PasspointConfigRow, type PasspointCredentialRow, createPasspointRepository } from "./passpoint.repository.js";

const USERNAME_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
/** 22 characters of 57: 128 bits. */
const PASSWORD_LENGTH = 22;
const HASH_SCHEME = "hs256";
/** findPasspointCertificate's repository when the caller has none of its own (it holds no state). */
const defaultRepos = { passpoint: createPasspointRepository() };

/** Who revoked a credential. */
export type RevokedBy = "api" | "console" | "guest";

export interface IssueFor {
  accountId: number;
  guestId: number;
  locationId: number;
  config: PasspointConfigRow;
  at?: Date;
}

export interface TtlsCredential {
  id: number;
  username: string;
  password: string;
  expiresAt: string;
}

export interface TlsCredential {
  id: number;
  username: string;
  certificate: string;
  privateKey: string;
  caCertificate: string;
  pkcs12: string;
  pkcs12Password: string;
  serial: string;
  fingerprintSha256: string;
  expiresAt: string;
}

export function hashPassword(password: string, salt = randomBytes(16)): string {
  return `${HASH_SCHEME}$${salt.toString("hex")}$${createHmac("sha256", salt).update(password, "utf8").digest("hex")}`;
}

export function passwordMatches(hash: string, password: string): boolean {
  const [scheme, saltHex, macHex] = hash.split("$");
  if (scheme !== HASH_SCHEME || !saltHex || !macHex) return false;
  const expected = Buffer.from(macHex, "hex");
  const got = createHmac("sha256", Buffer.from(saltHex, "hex")).update(password, "utf8").digest();
  return expected.length === got.length && timingSafeEqual(expected, got);
}

function newUsername(realm: string): string {
  return `${USERNAME_PREFIX}${randomString(USERNAME_ALPHABET, 16)}@${realm}`;
}

async function cuiFor(ctx: Ctx, guestId: number): Promise<string> {
  return (await ctx.repos.passpoint.cuiOfGuest(ctx.db, guestId)) ?? randomBytes(16).toString("hex");
}

function expiry(config: PasspointConfigRow, at: Date): Date {
  return new Date(at.getTime() + config.credential_days * 86_400_000);
}

/** A username and password for EAP-TTLS/PAP; the password is answered once and kept only hashed. */
export async function issueTtlsCredential(ctx: Ctx, f: IssueFor): Promise<TtlsCredential> {
  const at = f.at ?? new Date();
  const username = newUsername(f.config.realm);
  const password = randomString(PASSWORD_ALPHABET, PASSWORD_LENGTH);
  const expiresAt = toDbDatetime(expiry(f.config, at));
  const id = await ctx.repos.passpoint.insertCredential(ctx.db, {
    account_id: f.accountId,
    guest_id: f.guestId,
    config_id: f.config.id,
    location_id: f.locationId,
    kind: "ttls",
    username,
    password_hash: hashPassword(password),
    cui: await cuiFor(ctx, f.guestId),
    issued_at: toDbDatetime(at),
    expires_at: expiresAt,
  });
  return { id, username, password, expiresAt };
}

/**
 * A client certificate for EAP-TLS from the service CA, with a fresh key pair (made outside any
 * transaction: it takes a moment). The key is answered once, in a PKCS#12 bundle too.
 */
export async function issueTlsCredential(ctx: Ctx, config: Readonly<Pick<Config, "secretBoxKey" | "radsec">>, f: IssueFor): Promise<TlsCredential> {
  const at = f.at ?? new Date();
  const ca = await serviceCa(ctx.db, config);
  const username = newUsername(f.config.realm);
  const notAfter = expiry(f.config, at);
  const issued = await issueCertificate(ca, {
    commonName: username,
    organizationalUnit: "passpoint",
    usage: "client",
    notBefore: new Date(at.getTime() - 60_000),
    notAfter,
  });
  const pkcs12Password = randomString(PASSWORD_ALPHABET, PASSWORD_LENGTH);
  const expiresAt = toDbDatetime(notAfter);
  const id = await ctx.repos.passpoint.insertCredential(ctx.db, {
    account_id: f.accountId,
    guest_id: f.guestId,
    config_id: f.config.id,
    location_id: f.locationId,
    kind: "tls",
    username,
    serial: issued.serial,
    fingerprint_sha256: issued.fingerprintSha256,
    certificate: issued.certificate,
    cui: await cuiFor(ctx, f.guestId),
    issued_at: toDbDatetime(at),
    expires_at: expiresAt,
  });
  return {
    id,
    username,
    certificate: issued.certificate,
    privateKey: issued.privateKey,
    caCertificate: ca.certificate,
    pkcs12: pkcs12Bundle(issued, ca.certificate, pkcs12Password, username),
    pkcs12Password,
    serial: issued.serial,
    fingerprintSha256: issued.fingerprintSha256,
    expiresAt,
  };
}

/** Who a Passpoint credential stands for, once its proof held. */
export interface PasspointIdentity {
  credentialId: number;
  accountId: number;
  guestId: number;
  configId: number;
  username: string;
  /** Chargeable-User-Identity (RFC 4372). */
  cui: string;
  kind: "ttls" | "tls";
}

export type CredentialRefusal = "unknown" | "wrong password" | "revoked" | "expired";

function identityOf(row: PasspointCredentialRow): PasspointIdentity {
  return {
    credentialId: row.id,
    accountId: row.account_id,
    guestId: row.guest_id,
    configId: row.config_id,
    username: row.username,
    cui: row.cui,
    kind: row.kind === "tls" ? "tls" : "ttls",
  };
}

function refusalOf(row: PasspointCredentialRow, now: Date): CredentialRefusal | undefined {
  if (row.revoked_at !== null) return "revoked";
  if (fromDbDatetime(row.expires_at) <= now) return "expired";
  return undefined;
}

/** The identity of a username and the cleartext password PAP carried (EAP-TTLS's inner PAP too), or why not. */
export async function checkPasspointPassword(db: DB, repos: Ctx["repos"], username: string, password: string, now: Date): Promise<PasspointIdentity | CredentialRefusal> {
  const row = await repos.passpoint.findCredentialByUsername(db, username);
  if (row?.kind !== "ttls") return "unknown";
  if (!passwordMatches(row.password_hash, password)) return "wrong password";
  return refusalOf(row, now) ?? identityOf(row);
}

/**
 * The identity of an EAP-TLS client certificate (Node's X509Certificate/peer certificate values:
 * fingerprint256 "AB:CD:..", serialNumber hex), or null when it is not a Passpoint credential's, or
 * was revoked, or expired. The serial finds the row; the fingerprint must match it too.
 */
export async function findPasspointCertificate(
  db: DB,
  cert: { fingerprint256: string; serialNumber: string },
  now: Date = new Date(),
  repos: Pick<Ctx["repos"], "passpoint"> = defaultRepos,
): Promise<PasspointIdentity | null> {
  const serial = cert.serialNumber.replace(/:/g, "").toUpperCase().replace(/^0+(?=.)/, "");
  const row = await repos.passpoint.findCredentialBySerial(db, serial);
  if (!row || row.fingerprint_sha256 !== cert.fingerprint256.replace(/:/g, "").toUpperCase()) return null;
  return refusalOf(row, now) ? null : identityOf(row);
}

export async function revokeCredentials(ctx: Ctx, target: { ids: number[] } | { guestId: number }, by: RevokedBy, at = new Date()): Promise<number> {
  return ctx.repos.passpoint.revoke(ctx.db, target, toDbDatetime(at), by);
}

export type CredentialState = "valid" | "revoked" | "expired";

export function credentialState(row: PasspointCredentialRow, now = new Date()): CredentialState {
  const r = refusalOf(row, now);
  return r === "revoked" ? "revoked" : r === "expired" ? "expired" : "valid";
}

export function toCredentialRecord(row: PasspointCredentialRow, now = new Date()) {
  return {
    id: row.id,
    credential_id: row.id,
    user_id: row.guest_id,
    passpoint_id: row.config_id,
    location_id: row.location_id,
    kind: row.kind,
    username: row.username,
    serial: row.serial ?? "",
    fingerprint_sha256: row.fingerprint_sha256 ?? "",
    state: credentialState(row, now),
    issued_at: row.issued_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    revoked_by: row.revoked_by,
    last_used_at: row.last_used_at,
  };
}
