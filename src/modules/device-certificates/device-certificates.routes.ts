import { type ApiRouter, ok } from "../../http/api-route.js";
import { toDbDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import { ownedDevice } from "../devices/devices.refs.js";
import * as S from "./device-certificates.schemas.js";
import * as certs from "./device-certificates.service.js";

const tags = ["Devices"];

export function deviceCertificateRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/issue-device-certificate",
    summary: "Issue a RadSec client certificate for a device; its private key is shown once",
    description:
      "The certificate identifies the device to the RadSec listener (RADIUS over TLS, RFC 6614, TCP 2083). Earlier certificates " +
      "of the device stay valid until revoked or expired, so a gateway can be moved to the new one without an outage.",
    tags,
    access: "write",
    // Making a key pair takes a moment: no transaction is held meanwhile.
    transaction: false,
    params: S.DeviceCertificateParams,
    refs: { device_id: ownedDevice.one() },
    response: S.IssueCertificateResponse,
    handler: async ({ ctx, config }, _p, r) => {
      const b = await certs.issueDeviceCertificate(ctx, config, r.device_id);
      return ok({
        data: {
          certificate: b.issued.certificate,
          private_key: b.issued.privateKey,
          ca_certificate: b.caCertificate,
          pkcs12: b.pkcs12,
          pkcs12_password: b.pkcs12Password,
          serial: b.issued.serial,
          fingerprint_sha256: b.issued.fingerprintSha256,
          not_before: toDbDatetime(b.issued.notBefore),
          not_after: toDbDatetime(b.issued.notAfter),
        },
      });
    },
  });

  api.route({
    method: "POST",
    url: "/api/revoke-device-certificate",
    summary: "Revoke every valid RadSec certificate of a device: its next connection fails, open ones are closed",
    tags,
    access: "write",
    transaction: false,
    params: S.DeviceCertificateParams,
    refs: { device_id: ownedDevice.one() },
    response: S.RevokeCertificateResponse,
    handler: async ({ ctx }, _p, r) => {
      const serials = await certs.revokeDeviceCertificates(ctx, r.device_id);
      // Committed (no transaction here): this instance closes its connections now, others on their next packet.
      certs.closeRevokedConnections(ctx, serials);
      return ok({ message: serials.length > 0 ? "The device's certificates have been revoked." : "The device had no valid certificate.", revoked: serials.length });
    },
  });

  api.route({
    method: "GET",
    url: "/api/device-certificate-list",
    summary: "A device's RadSec certificates (public parts), with state and expiry",
    tags,
    access: "read",
    params: S.DeviceCertificateParams,
    refs: { device_id: ownedDevice.one() },
    response: S.CertificateListResponse,
    handler: async ({ ctx }, _p, r) => {
      const rows = await certs.listDeviceCertificates(ctx, r.device_id.id);
      return ok({
        data: rows.map((c) => ({
          serial: c.serial,
          subject: c.subject,
          fingerprint_sha256: c.fingerprint_sha256,
          certificate: c.certificate,
          state: c.state,
          not_before: c.not_before,
          not_after: c.not_after,
          issued_at: c.issued_at,
          revoked_at: c.revoked_at,
        })),
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/radsec-ca-certificate",
    summary: "The CA certificate of RadSec: gateways trust the server through it",
    tags,
    access: "read",
    transaction: false,
    params: S.CaParams,
    response: S.CaResponse,
    handler: async ({ ctx, config }) => ok({ data: { ca_certificate: (await certs.serviceCa(ctx.db, config)).certificate } }),
  });
}
