/**
 * Device certificates for RadSec. One CA for the whole service, not one per account: the listener
 * checks a client's chain during the handshake, before it knows which account is calling, and a
 * trust list of thousands of account CAs would be sent in every CertificateRequest and searched on
 * every handshake. Which device (and so which account) a connection speaks for comes from the
 * certificate's serial in device_certificates, not from the CA; a device of one account can never
 * speak for another's (src/radius/radsec-server.ts). An operator may give the CA by file instead
 * (RADSEC_CA_CERT, RADSEC_CA_KEY); otherwise the service makes one at first use and keeps it, its
 * key sealed like the service's other secrets.
 */
import { randomBytes } from "node:crypto";
import type { Config } from "../../config.js";
import type { DB } from "../../db/database.js";
import { openSecret, sealSecret, secretBoxKey } from "../../db/secret-box.js";
import { fromDbDatetime, nowDatetime, toDbDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import type { DeviceRow } from "../devices/devices.repository.js";
import { type CaMaterial, type IssuedCertificate, createCa, issueCertificate, pkcs12Bundle } from "./certificate-authority.js";
import { type CertificateHolder, type DeviceCertificateRow, createDeviceCertificateRepository } from "./device-certificates.repository.js";

/** The name of the service's generated CA in certificate_authorities, and its key's sealing purpose. */
const CA_NAME = "radsec";
const CA_KEY_PURPOSE = "certificate-authority:radsec";
const CA_DAYS = 20 * 365;

type CaConfig = Pick<Config, "secretBoxKey" | "radsec">;

/** The CA that issues device certificates and that the listener trusts. */
export async function serviceCa(db: DB, config: Readonly<CaConfig>): Promise<CaMaterial> {
  if (config.radsec.caCert && config.radsec.caKey) return { certificate: config.radsec.caCert, privateKey: config.radsec.caKey };
  const repo = createDeviceCertificateRepository();
  const key = await secretBoxKey(db, config.secretBoxKey);
  let row = await repo.findAuthority(db, CA_NAME);
  if (!row) {
    const made = await createCa("guestwifi RadSec CA", CA_DAYS);
    row = await repo.insertAuthorityOnce(db, {
      name: CA_NAME,
      certificate: made.certificate,
      sealed_key: sealSecret(key, CA_KEY_PURPOSE, made.privateKey),
      created_at: nowDatetime(),
    });
  }
  const privateKey = openSecret(key, CA_KEY_PURPOSE, row.sealed_key);
  if (privateKey === undefined) throw new Error("the RadSec CA key cannot be opened: SECRET_BOX_KEY differs from the one that sealed it");
  return { certificate: row.certificate, privateKey };
}

export interface DeviceCertificateBundle {
  issued: IssuedCertificate;
  caCertificate: string;
  pkcs12: string;
  pkcs12Password: string;
}

/** A new client certificate for the device (earlier ones stay valid until revoked or expired: rotation without downtime). */
export async function issueDeviceCertificate(
  ctx: Ctx,
  config: Readonly<CaConfig>,
  device: DeviceRow,
  validity: { notBefore?: Date; notAfter?: Date } = {},
): Promise<DeviceCertificateBundle> {
  const ca = await serviceCa(ctx.db, config);
  const notBefore = validity.notBefore ?? new Date(Date.now() - 5 * 60_000);
  const notAfter = validity.notAfter ?? new Date(notBefore.getTime() + config.radsec.deviceCertDays * 86_400_000);
  const issued = await issueCertificate(ca, {
    commonName: device.mac_address,
    organizationalUnit: `guestwifi device ${device.id}`,
    usage: "client",
    notBefore,
    notAfter,
  });
  await ctx.repos.deviceCertificates.insert(ctx.db, {
    device_id: device.id,
    account_id: device.account_id,
    serial: issued.serial,
    fingerprint_sha256: issued.fingerprintSha256,
    subject: issued.subject,
    certificate: issued.certificate,
    not_before: toDbDatetime(notBefore),
    not_after: toDbDatetime(notAfter),
    issued_at: nowDatetime(),
    revoked_at: null,
  });
  const pkcs12Password = randomBytes(16).toString("base64url");
  return { issued, caCertificate: ca.certificate, pkcs12: pkcs12Bundle(issued, ca.certificate, pkcs12Password, device.mac_address), pkcs12Password };
}

/** Revokes every live certificate of the device and closes this instance's connections made with them (others within seconds). */
export async function revokeDeviceCertificates(ctx: Ctx, device: DeviceRow): Promise<string[]> {
  const serials = await ctx.repos.deviceCertificates.revokeByDevice(ctx.db, device.id, nowDatetime());
  return serials;
}

/** After the revoking transaction committed: this instance's open connections with those certificates end now. */
export function closeRevokedConnections(ctx: Ctx, serials: string[]): number {
  return serials.length > 0 && ctx.radsecPeers ? ctx.radsecPeers.closeCertificates(serials) : 0;
}

export type CertificateState = "valid" | "revoked" | "expired" | "not-yet-valid";

export function certificateState(row: Pick<DeviceCertificateRow, "revoked_at" | "not_before" | "not_after">, now = new Date()): CertificateState {
  if (row.revoked_at !== null) return "revoked";
  if (fromDbDatetime(row.not_after) <= now) return "expired";
  if (fromDbDatetime(row.not_before) > now) return "not-yet-valid";
  return "valid";
}

export async function listDeviceCertificates(ctx: Ctx, deviceId: number): Promise<(DeviceCertificateRow & { state: CertificateState })[]> {
  const now = new Date();
  return (await ctx.repos.deviceCertificates.listByDevice(ctx.db, deviceId)).map((r) => ({ ...r, state: certificateState(r, now) }));
}

/** Whom a presented certificate speaks for: its device and account, while it is neither revoked nor expired. */
export async function certificateHolder(ctx: Ctx, serial: string, now = new Date()): Promise<CertificateHolder | undefined> {
  const holder = await ctx.repos.deviceCertificates.findHolder(ctx.db, serial);
  if (!holder || holder.revoked_at !== null || fromDbDatetime(holder.not_after) <= now) return undefined;
  return holder;
}
