import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

const Success = Type.Literal("success");
const Datetime = (description: string) => Type.String({ description: `${description} YYYY-MM-DD HH:MM:SS, UTC.` });

export const DeviceCertificateParams = Type.Object({ identifier: F.identifier(), device_id: F.id("Device.") });

export const IssueCertificateResponse = Type.Object({
  status: Success,
  data: Type.Object({
    certificate: Type.String({ description: "The device's client certificate (PEM)." }),
    private_key: Type.String({ description: "Its private key (PEM, PKCS#8, unencrypted). Shown once: it is not stored." }),
    ca_certificate: Type.String({ description: "The CA (PEM) that issued it; the gateway trusts the RadSec server through it." }),
    pkcs12: Type.String({ description: "Key, certificate and CA as one PKCS#12 file, base64, for gear that imports only that." }),
    pkcs12_password: Type.String({ description: "The PKCS#12 file's password. Shown once." }),
    serial: Type.String({ description: "Serial number, upper-case hex." }),
    fingerprint_sha256: Type.String(),
    not_before: Datetime("Valid from."),
    not_after: Datetime("Valid until."),
  }),
});

export const CertificateRecord = Type.Object({
  serial: Type.String(),
  subject: Type.String(),
  fingerprint_sha256: Type.String(),
  certificate: Type.String({ description: "PEM (public)." }),
  state: Type.Union([Type.Literal("valid"), Type.Literal("revoked"), Type.Literal("expired"), Type.Literal("not-yet-valid")]),
  not_before: Datetime("Valid from."),
  not_after: Datetime("Valid until."),
  issued_at: Datetime("Issued."),
  revoked_at: Type.Union([Type.String(), Type.Null()], { description: "When revoked; null while not." }),
});

export const CertificateListResponse = Type.Object({ status: Success, data: Type.Array(CertificateRecord) });

export const RevokeCertificateResponse = Type.Object({
  status: Success,
  message: Type.String(),
  revoked: Type.Integer({ description: "Certificates revoked by this call (0 when none was valid)." }),
});

export const CaParams = Type.Object({ identifier: F.identifier() });

export const CaResponse = Type.Object({
  status: Success,
  data: Type.Object({ ca_certificate: Type.String({ description: "The CA (PEM) of the service's RadSec certificates." }) }),
});
