/** A RADIUS + RadSec server on a fresh database, a location, an access point and a certificate for it. */
import { issueDeviceCertificate } from "../../src/modules/device-certificates/device-certificates.service.js";
import { type RadiusEnv, createRadiusEnv, makeDevice, makeLocation } from "./radius-fixtures.js";
import type { Dialect } from "../helpers/db.js";
import type { ClientTls } from "./radsec-client.js";

export const RADSEC_ENV = { RADSEC_ENABLED: "true", RADSEC_HOST: "127.0.0.1", RADSEC_PORT: "0" };

export interface RadsecWorld {
  t: RadiusEnv;
  locationId: number;
  ap: { id: number; mac: string; secret: string };
  tls: ClientTls;
  port: number;
}

export async function deviceTls(t: RadiusEnv, deviceId: number, validity: { notBefore?: Date; notAfter?: Date } = {}): Promise<ClientTls & { serial: string }> {
  const device = await t.db.selectFrom("devices").selectAll().where("id", "=", deviceId).executeTakeFirstOrThrow();
  const b = await issueDeviceCertificate(t.deps, t.radiusConfig, device, validity);
  return { certificate: b.issued.certificate, privateKey: b.issued.privateKey, caCertificate: b.caCertificate, serial: b.issued.serial };
}

export async function radsecWorld(dialect: Dialect, env: Record<string, string> = {}, modelId = "coovachilli"): Promise<RadsecWorld> {
  const t = await createRadiusEnv(dialect, { ...RADSEC_ENV, ...env });
  const locationId = await makeLocation(t, { session_time_limit: 3600 });
  const ap = await makeDevice(t, locationId, t.accountId, modelId);
  return { t, locationId, ap, tls: await deviceTls(t, ap.id), port: t.radius.radsec!.port };
}
