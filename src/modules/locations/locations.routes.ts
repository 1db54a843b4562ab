import type { FastifyInstance } from "fastify";
import { ok, registerApiRoute } from "../../http/api-route.js";
import { parseIdList } from "../../http/validation.js";
import { locationRepository } from "./locations.repository.js";
import * as S from "./locations.schemas.js";
import * as locations from "./locations.service.js";

const tags = ["Locations"];

export function locationRoutes(app: FastifyInstance): void {
  registerApiRoute(app, {
    method: "POST",
    url: "/api/create-or-update-location",
    summary: "Create a location, or update one when location_id is given",
    tags,
    access: "write",
    params: S.LocationWriteParams,
    response: S.LocationWriteResponse,
    handler: async ({ db, caller }, p, bag) => {
      const { id, created } = await locations.saveLocation(db, caller.accountId, p, bag);
      return ok({ message: created ? "Location has been successfully created." : "Location has been successfully updated.",
        location_id: id,
      });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/get-location",
    summary: "Read up to 10 locations by id (deleted ones too, with deleted: 1)",
    tags,
    access: "read",
    params: S.GetLocationParams,
    response: S.LocationsResponse,
    handler: async ({ db, caller, config }, p, bag) => {
      const ids = parseIdList(p.location_ids, "location_ids", bag, 10);
      const rows = await locations.requireOwnedLocations(db, caller.accountId, ids, "location_ids", bag);
      bag.throwIfAny();
      return ok({ data: rows.map((r) => locations.toLocationRecord(r, config.publicUrl)) });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/location-list",
    summary: "All of the caller's locations that are not deleted, ordered by id",
    tags,
    access: "read",
    params: S.LocationListParams,
    response: S.LocationsResponse,
    handler: async ({ db, caller, config }) => {
      const rows = await locationRepository.listLive(db, caller.accountId);
      return ok({ data: rows.map((r) => locations.toLocationRecord(r, config.publicUrl)) });
    },
  });

  registerApiRoute(app, {
    method: "POST",
    url: "/api/delete-location",
    summary: "Soft-delete a location (account identifier only); its devices are unassigned",
    tags,
    access: "parent",
    params: S.DeleteLocationParams,
    response: S.MessageResponse,
    handler: async ({ db, caller }, p, bag) => {
      await locations.deleteLocation(db, caller.accountId, p.location_id, bag);
      return ok({ message: "Location has been successfully deleted." });
    },
  });

  registerApiRoute(app, {
    method: "POST",
    url: "/api/location-assign-campaign",
    summary: "Make a campaign the location's default (location_id 0 removes it as default everywhere)",
    tags,
    access: "write",
    params: S.AssignCampaignParams,
    response: S.MessageResponse,
    handler: async ({ db, caller }, p, bag) => {
      await locations.assignCampaign(db, caller.accountId, p.location_id, p.campaign_id, bag);
      return ok({ message: "Campaign has been successfully assigned to Location." });
    },
  });

  registerApiRoute(app, {
    method: "POST",
    url: "/api/device-assign-location",
    summary: "Assign a device to a location (location_id 0 disassociates it)",
    tags,
    access: "write",
    params: S.AssignDeviceParams,
    response: S.MessageResponse,
    handler: async ({ db, caller }, p, bag) => {
      await locations.assignDevice(db, caller.accountId, p.location_id, p.device_id, bag);
      return ok({ message: "Device has been successfully assigned to Location." });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/get-location-devices",
    summary: "Devices assigned to a location",
    tags,
    access: "read",
    params: S.LocationIdParams,
    response: S.LocationDevicesResponse,
    handler: async ({ db, caller }, p, bag) => {
      await locations.requireLiveLocation(db, caller.accountId, p.location_id, "location_id", bag);
      bag.throwIfAny();
      return ok({ devices: await locations.locationDevices(db, p.location_id) });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/get-location-options",
    summary: "A location's session and bandwidth settings",
    tags,
    access: "read",
    params: S.LocationIdParams,
    response: S.LocationOptionsResponse,
    handler: async ({ db, caller }, p, bag) => {
      await locations.requireLiveLocation(db, caller.accountId, p.location_id, "location_id", bag);
      bag.throwIfAny();
      return ok({ data: locations.toOptionsRecord(await locations.loadOptions(db, p.location_id)) });
    },
  });

  registerApiRoute(app, {
    method: "POST",
    url: "/api/set-session-and-bandwidth-info",
    summary: "Set a location's session time limit, bandwidth limits, daily cap and content filter",
    description:
      "The five listed values are always set; an omitted one is set to 0 (off). Bandwidth in bytes per second, " +
      "the cap in bytes per guest per local day, time in seconds. dns_server_1/2, whitelist and blacklist keep " +
      "their value when omitted.",
    tags,
    access: "write",
    params: S.SetSessionParams,
    response: S.MessageResponse,
    handler: async ({ db, caller }, p, bag) => {
      await locations.setSessionAndBandwidth(db, caller.accountId, p, bag);
      return ok({ message: "Location Session and Bandwidth Info has been set." });
    },
  });
}
