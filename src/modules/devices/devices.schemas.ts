import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

const Success = Type.Literal("success");

export const CreateDeviceParams = Type.Object({
  identifier: F.identifier(),
  device_name: F.text(255, "Name of the access point: any script, spaces and punctuation, no control characters.", { format: "name" }),
  // 64, not 17: a MAC with an extra pair should hear "format is invalid", not also a length error.
  mac_address: F.text(64, "MAC address of the access point, six colon-separated hex pairs.", { format: "mac" }),
  model_id: F.text(64, "A model id from GET /api/device-models."),
});

export const DeviceRecord = Type.Object({
  id: Type.Integer(),
  location_id: Type.Integer({ description: "0 when the device is not assigned to a location." }),
  model_id: Type.String(),
  name: Type.String(),
  mac_address: Type.String({ description: "Upper case, colon-separated." }),
  wan_ip: Type.String(),
  create_date: Type.String(),
  update_date: Type.String(),
  upgrade: Type.Integer({ description: "0 or 1" }),
  last_upgraded: Type.String({ description: "When the gateway last fetched its configuration (docs/gateways.md) or was upgraded; empty when never." }),
  wifi_channel: Type.String(),
  firmware_version: Type.String(),
  status: Type.String({ description: "active or inactive" }),
  live_status: Type.String({ description: "online, offline or never_connected" }),
  radius_secret: Type.Optional(
    Type.String({ description: "The device's own RADIUS shared secret. Not shown to read-only sub-users." }),
  ),
});

export const CreateDeviceResponse = Type.Object({
  status: Success,
  message: Type.String(),
  device_id: Type.Integer(),
  radius_secret: Type.String({ description: "The RADIUS shared secret to configure on the device." }),
  data: DeviceRecord,
});

export const GetDeviceParams = Type.Object({
  identifier: F.identifier(),
  device_ids: F.idList("One device id or up to 10 comma-separated ids."),
});

export const DeviceListParams = Type.Object({ identifier: F.identifier() });

export const DevicesResponse = Type.Object({ status: Success, data: Type.Array(DeviceRecord) });

export const DeviceModelsResponse = Type.Object({
  status: Success,
  data: Type.Array(Type.Object({ id: Type.String(), vendor: Type.String(), name: Type.String() })),
});

export const DeviceIdParams = Type.Object({ identifier: F.identifier(), device_id: F.id("Device.") });

export const RotateSecretParams = Type.Object({
  identifier: F.identifier(),
  device_id: F.id("Device."),
  radius_secret: Type.Optional(
    F.text(64, "The secret to set, 16 to 64 printable ASCII characters without spaces: e.g. the one a controller (Meraki's dashboard, a SmartZone AAA server) already uses for every AP of a network. Omit it for a new random secret.", {
      pattern: "^[!-~]{16,64}$",
    }),
  ),
});

export const RotateSecretResponse = Type.Object({
  status: Success,
  message: Type.String(),
  device_id: Type.Integer(),
  radius_secret: Type.String({ description: "The device's new RADIUS shared secret; the old one no longer works." }),
});

export const DeviceConfigResponse = Type.Object({
  status: Success,
  data: Type.Object({
    family: Type.String({ description: "The device's gateway family (docs/gateways.md)." }),
    filename: Type.String({ description: "The file name to save the content as." }),
    content_type: Type.String(),
    content: Type.String({ description: "The configuration: a RouterOS script, a uci batch file, a CoovaChilli config, or a controller family's values and steps." }),
    steps: Type.Array(Type.String(), { description: "What the operator still does, in the vendor's words." }),
    not_carried: Type.Array(Type.String(), { description: "Location options this family cannot carry, and where to set them instead." }),
    warnings: Type.Array(Type.String(), { description: "Why the file would not work as generated (PUBLIC_URL on localhost, ...)." }),
  }),
});
