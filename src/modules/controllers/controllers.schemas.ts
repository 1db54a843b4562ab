import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

const Success = Type.Literal("success");

export const CONTROLLER_TYPES = ["unifi", "omada", "ruckus"] as const;
export type ControllerType = (typeof CONTROLLER_TYPES)[number];

export const ControllerWriteParams = Type.Object({
  identifier: F.identifier(),
  controller_id: Type.Optional(F.id("Existing controller to update; omit to create a new one.")),
  name: F.text(255, "What the operator calls the controller."),
  type: Type.Union(
    CONTROLLER_TYPES.map((t) => Type.Literal(t)),
    { description: "unifi (UniFi Network, classic or UniFi OS), omada (TP-Link Omada) or ruckus (the northbound portal interface of a RUCKUS SmartZone or RUCKUS One).", "x-error": "oneOf", "x-values": [...CONTROLLER_TYPES] },
  ),
  url: F.text(2048, "Base URL of the controller, e.g. https://192.168.1.2:8443 (classic UniFi), https://unifi.example (UniFi OS), https://omada.example:8043, https://smartzone.example:9443 (SmartZone's northbound portal interface), https://<tenant>.wispr.ruckus.cloud (RUCKUS One).", {
    format: "http-url",
  }),
  site: Type.Optional(
    F.text(64, "The controller's site: UniFi's short site id (default: default), Omada's site name (default: Default).", {
      pattern: "^[\\p{L}\\p{N} _.-]{1,64}$",
    }),
  ),
  username: Type.Optional(F.text(255, "Login of a controller account allowed to authorise guests (UniFi admin with hotspot rights, Omada hotspot operator); for ruckus, the northbound interface's user name where the controller has one (optional).")),
  password: Type.Optional(F.text(1024, "Its password (for ruckus: the northbound interface's password). Write-only: stored sealed, never returned.")),
  api_key: Type.Optional(F.text(1024, "UniFi OS only: an API key (Network > Settings > Control Plane > Integrations) instead of username and password. Write-only.")),
  tls_fingerprint: Type.Optional(
    F.text(128, "SHA-256 of the controller's certificate (hex, colons allowed), to pin a self-signed certificate; empty: the usual certificate checks.", {
      pattern: "^(([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2})?$",
    }),
  ),
});

export const ControllerRecord = Type.Object({
  id: Type.Integer(),
  controller_id: Type.Integer(),
  name: Type.String(),
  type: Type.String({ description: "unifi, omada or ruckus" }),
  url: Type.String(),
  site: Type.String(),
  auth: Type.String({ description: "password (username and password are set) or api_key. The credentials themselves are never returned." }),
  tls_fingerprint: Type.String({ description: "Pinned SHA-256 of the certificate, 64 upper-case hex digits, or empty." }),
  location_ids: Type.Array(Type.Integer(), { description: "Locations whose guests this controller lets in." }),
  last_status: Type.String({ description: "What the service last heard from the controller (Test connection, a guest's grant, a push of the walled garden): ok, unreachable, timeout, certificate, refused (wrong credentials), site (wrong site), rejected, forbidden; empty before the first call." }),
  last_message: Type.String({ description: "The same in words." }),
  last_checked_at: Type.String({ description: "When, UTC (YYYY-MM-DD HH:MM:SS); empty before the first call." }),
  date_created: Type.String(),
  last_modified: Type.String(),
});

export const ControllerWriteResponse = Type.Object({
  status: Success,
  message: Type.String(),
  controller_id: Type.Integer(),
  data: ControllerRecord,
});

export const ControllerListParams = Type.Object({ identifier: F.identifier() });

export const ControllersResponse = Type.Object({ status: Success, data: Type.Array(ControllerRecord) });

export const DeleteControllerParams = Type.Object({ identifier: F.identifier(), controller_id: F.id("Controller to delete.") });

export const AssignControllerParams = Type.Object({
  identifier: F.identifier(),
  location_id: F.id("Location whose guests the controller lets in."),
  controller_id: F.idOrZero("Controller; 0 removes the location's controller."),
});

export const MessageResponse = Type.Object({ status: Success, message: Type.String() });

export const TestControllerParams = Type.Object({ identifier: F.identifier(), controller_id: F.id("Controller to call.") });

export const TestControllerResponse = Type.Object({
  status: Success,
  data: Type.Object({
    ok: Type.Boolean({ description: "Whether the controller was reached, took the credentials and has the site." }),
    fault: Type.String({ description: "ok, or what failed: unreachable, timeout, certificate, refused (wrong credentials), site (wrong site), rejected, forbidden." }),
    message: Type.String({ description: "What was found, in words." }),
    checked_at: Type.String({ description: "When, UTC (YYYY-MM-DD HH:MM:SS)." }),
  }),
});
