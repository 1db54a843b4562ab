import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

export const MAX_PASSPOINT_LOCATIONS = 500;
export const EAP_METHODS = ["ttls", "tls"] as const;
export type EapMethod = (typeof EAP_METHODS)[number];
export const MAX_CREDENTIAL_DAYS = 3650;

const Success = Type.Literal("success");
const Datetime = (description: string) => Type.String({ description: `${description} (UTC, YYYY-MM-DD HH:MM:SS).` });

export const PasspointWriteParams = Type.Object({
  identifier: F.identifier(),
  passpoint_id: Type.Optional(F.id("Existing Passpoint configuration to update; omit to create a new one.")),
  location_ids: F.idList(
    `Locations that offer "connect automatically": one id or up to ${MAX_PASSPOINT_LOCATIONS} comma-separated ids. A location is covered by one configuration; naming it here takes it from another.`,
  ),
  ssid: F.text(32, "The secure (WPA2/WPA3-Enterprise, Hotspot 2.0) SSID the access points broadcast.", { format: "ssid" }),
  domain: F.text(253, "The home service provider's domain (HomeSP FQDN, Apple's DomainName), e.g. wifi.example.com; also the Domain Name ANQP element the access points answer."),
  realm: F.text(253, "The NAI realm (RFC 7542) of the credentials: usernames are pp-...@realm; the access points advertise it in the NAI Realm ANQP element with EAP-TTLS and EAP-TLS."),
  roaming_consortium: Type.Optional(
    F.text(255, "Roaming consortium OIs the access points advertise and the profiles match, comma-separated hex, each 3 or 5 octets (e.g. 5A03BA0000,004096); may be empty."),
  ),
  friendly_name: Type.Optional(F.text(64, "The name devices show for the provider (Android's FriendlyName, the Apple profile's display name); default: the SSID.")),
  eap_method: Type.Optional(
    Type.Union(
      EAP_METHODS.map((m) => Type.Literal(m)),
      { description: "What the profiles use: ttls (username and password, EAP-TTLS/PAP; the default) or tls (a client certificate, EAP-TLS; Windows profiles stay ttls).", "x-error": "oneOf", "x-values": [...EAP_METHODS] },
    ),
  ),
  credential_days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_CREDENTIAL_DAYS, description: `Days a guest's credential stays valid after it is issued (1-${MAX_CREDENTIAL_DAYS}; default 365).` }),
  ),
});

export const PasspointRecord = Type.Object({
  id: Type.Integer(),
  passpoint_id: Type.Integer(),
  location_ids: Type.Array(Type.Integer()),
  ssid: Type.String(),
  domain: Type.String(),
  realm: Type.String(),
  roaming_consortium: Type.String({ description: "Upper-case hex OIs, comma-separated." }),
  friendly_name: Type.String(),
  eap_method: Type.String(),
  credential_days: Type.Integer(),
  date_created: Type.String(),
  last_modified: Type.String(),
});

export const PasspointWriteResponse = Type.Object({ status: Success, message: Type.String(), passpoint_id: Type.Integer(), data: PasspointRecord });

export const PasspointListParams = Type.Object({ identifier: F.identifier() });

export const PasspointListResponse = Type.Object({ status: Success, data: Type.Array(PasspointRecord) });

export const DeletePasspointParams = Type.Object({ identifier: F.identifier(), passpoint_id: F.id("Passpoint configuration to delete.") });

export const MessageResponse = Type.Object({ status: Success, message: Type.String() });

export const CredentialListParams = Type.Object({ identifier: F.identifier(), user_id: F.id("The guest (social user) whose credentials to list.") });

export const CredentialRecord = Type.Object({
  id: Type.Integer(),
  credential_id: Type.Integer(),
  user_id: Type.Integer({ description: "The guest (social user) it is bound to." }),
  passpoint_id: Type.Integer({ description: "The Passpoint configuration (passpoint_id) it was issued under." }),
  location_id: Type.Integer({ description: "Where the guest logged in when it was issued." }),
  kind: Type.String({ description: "ttls (username and password) or tls (client certificate)." }),
  username: Type.String(),
  serial: Type.String({ description: "tls: the certificate's serial, upper-case hex; ttls: empty." }),
  fingerprint_sha256: Type.String(),
  state: Type.Union([Type.Literal("valid"), Type.Literal("revoked"), Type.Literal("expired")]),
  issued_at: Datetime("Issued"),
  expires_at: Datetime("Valid until"),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
  revoked_by: Type.String({ description: "api, console or guest; empty while not revoked." }),
  last_used_at: Type.Union([Type.String(), Type.Null()], { description: "The last Access-Accept it got." }),
});

export const CredentialListResponse = Type.Object({ status: Success, data: Type.Array(CredentialRecord) });

export const RevokeCredentialParams = Type.Object({
  identifier: F.identifier(),
  credential_id: Type.Optional(F.id("One credential to revoke.")),
  user_id: Type.Optional(F.id("A guest (social user): every credential of it is revoked.")),
});

export const RevokeCredentialResponse = Type.Object({
  status: Success,
  message: Type.String(),
  revoked: Type.Integer({ description: "Credentials revoked by this call (0 when none was valid)." }),
});
