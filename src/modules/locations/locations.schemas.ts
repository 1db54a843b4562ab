import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

const Success = Type.Literal("success");

export const LocationWriteParams = Type.Object({
  identifier: F.identifier(),
  location_id: Type.Optional(F.id("Existing location to update; omit to create a new one.")),
  location_name: F.text(255, "Name of the location: any script, spaces and punctuation, no control characters.", { format: "name" }),
  address1: F.text(255, "Street address line."),
  town: F.text(100, "Town or city."),
  state: F.text(100, "State or region."),
  zipcode: F.text(20, "Postal code."),
  country: F.text(2, "ISO 3166-1 alpha-2 country code.", { format: "country", minLength: 2 }),
  phone_number: F.text(32, "Phone number, (YYY)ZZZ-XXXX or international with its country code as written (+44 117 496 0123).", { format: "phone-us" }),
  timezone: F.text(64, "IANA time zone in Region/City form.", { format: "timezone" }),
  website: Type.Optional(F.text(2048, "Web site of the location.", { format: "http-url" })),
  latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: "Latitude in degrees." })),
  longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: "Longitude in degrees." })),
});

export const LocationWriteResponse = Type.Object({
  status: Success,
  message: Type.String(),
  location_id: Type.Integer(),
});

export const LocationRecord = Type.Object({
  id: Type.Integer(),
  location_id: Type.Integer(),
  name: Type.String(),
  location: Type.Object({ latitude: Type.Union([Type.Number(), Type.Null()]), longitude: Type.Union([Type.Number(), Type.Null()]) }),
  address: Type.String(),
  city: Type.String(),
  zip: Type.String(),
  state: Type.String(),
  country: Type.String(),
  phone_number: Type.String(),
  url: Type.String({ description: "The location's captive portal page." }),
  website: Type.String(),
  time_zone: Type.String(),
  default_campaign_id: Type.Integer({ description: "0 when none is set (the built-in template is shown)." }),
  date_created: Type.String(),
  last_modified: Type.String(),
  deleted: Type.Integer(),
});

export const GetLocationParams = Type.Object({
  identifier: F.identifier(),
  location_ids: F.idList("One location id or up to 10 comma-separated ids."),
});

export const LocationListParams = Type.Object({ identifier: F.identifier() });

export const LocationsResponse = Type.Object({ status: Success, data: Type.Array(LocationRecord) });

export const DeleteLocationParams = Type.Object({ identifier: F.identifier(), location_id: F.id("Location to delete.") });

export const MessageResponse = Type.Object({ status: Success, message: Type.String() });

export const AssignDeviceParams = Type.Object({
  identifier: F.identifier(),
  location_id: F.idOrZero("Location; 0 disassociates the device from any location."),
  device_id: F.id("Device to assign."),
});

export const LocationIdParams = Type.Object({ identifier: F.identifier(), location_id: F.id("Location.") });

export const LocationDeviceEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  mac_address: Type.String(),
  model: Type.String(),
  status: Type.String({ description: "active or inactive" }),
  live_status: Type.String({ description: "online, offline or never_connected" }),
  firmware_version: Type.String(),
  upgrade: Type.Integer(),
  sync_response: Type.String(),
  status_created_on: Type.String({ description: "When the device was created (UTC)." }),
});

export const LocationDevicesResponse = Type.Object({ status: Success, devices: Type.Array(LocationDeviceEntry) });

const StateValue = Type.Object({ state: Type.Boolean(), value: Type.Integer() });
export const LocationOptions = Type.Object({
  location_id: Type.Integer(),
  session_time_limit: StateValue,
  daily_bandwidth_cap: StateValue,
  content_filter: Type.Object({ state: Type.Boolean() }),
  bandwidth_throttle_upanddown: Type.Object({
    state_up: Type.Boolean(),
    state_down: Type.Boolean(),
    value: Type.Object({ up: Type.Integer(), down: Type.Integer() }),
  }),
  dns_server_1: Type.String(),
  dns_server_2: Type.String(),
  blacklist: Type.String(),
  whitelist: Type.String(),
});

export const LocationOptionsResponse = Type.Object({ status: Success, data: LocationOptions });

/** Bounds of the columns (src/db/migrations): session_time_limit is an integer, the byte counts bigints. */
const INTEGER_COLUMN_MAX = 2 ** 31 - 1;
const BYTES_MAX = 2 ** 50;
const NonNegative = (maximum: number, description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum, description }));
export const SetSessionParams = Type.Object({
  identifier: F.identifier(),
  location_id: F.id("Location."),
  session_time_limit: NonNegative(INTEGER_COLUMN_MAX, "Session time limit in seconds; 0 is off."),
  max_bandwidth: NonNegative(BYTES_MAX, "Download limit in bytes per second; 0 is off."),
  max_bandwidth_up: NonNegative(BYTES_MAX, "Upload limit in bytes per second; 0 is off."),
  daily_bandwidth_cap: NonNegative(BYTES_MAX, "Bytes per guest per day; 0 is off."),
  content_filter: Type.Optional(F.bool("Content filter on or off.")),
  dns_server_1: Type.Optional(F.text(45, "First DNS server (IP address); empty clears it.", { format: "ip-or-empty" })),
  dns_server_2: Type.Optional(F.text(45, "Second DNS server (IP address); empty clears it.", { format: "ip-or-empty" })),
  whitelist: Type.Optional(F.text(10000, "Domains guests may reach before login, comma-separated.")),
  blacklist: Type.Optional(F.text(10000, "Domains blocked for guests, comma-separated.")),
});
