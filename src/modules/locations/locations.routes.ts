import { msg } from "../../errors.js";
import { type ApiRouter, SerializedJson, ok } from "../../http/api-route.js";
import { inScope } from "../../http/caller.js";
import type { Ctx } from "../context.js";
import { ownedDevice } from "../devices/devices.refs.js";
import { liveLocation, ownedLocation } from "./locations.refs.js";
import type { LocationRow } from "./locations.repository.js";
import * as S from "./locations.schemas.js";
import * as locations from "./locations.service.js";

const tags = ["Locations"];

export function locationRoutes(api: ApiRouter<Ctx>): void {
  /** get-location's JSON of each location row, kept with the (cached, never changed) row object. */
  const recordJson = new WeakMap<LocationRow, string>();
  /**
   * get-location's whole answer as bytes, by the ids asked for, kept with the first row object:
   * a client that polls the same locations (a dashboard, a monitoring script) is answered without
   * joining, measuring and encoding its 4 KB again. Given again only while every row is the very
   * object it was made from (the read cache replaces the rows when the catalogue changes).
   */
  const answers = new WeakMap<LocationRow, Map<string, { rows: LocationRow[]; bytes: Buffer }>>();
  const ANSWERS_PER_ROW = 16;
  api.route({
    method: "POST",
    url: "/api/create-or-update-location",
    summary: "Create a location, or update one when location_id is given",
    tags,
    access: "write",
    params: S.LocationWriteParams,
    refs: { location_id: liveLocation.one("update") },
    checks: [
      ({ caller, given, fail }) => {
        if (caller.locationScope !== null && !given("location_id")) fail("identifier", msg.scopedCreate("locations"));
      },
    ],
    response: S.LocationWriteResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const input = {
        name: p.location_name,
        address1: p.address1,
        town: p.town,
        state: p.state,
        zipcode: p.zipcode,
        country: p.country,
        phoneNumber: p.phone_number,
        timezone: p.timezone,
        website: p.website,
        latitude: p.latitude,
        longitude: p.longitude,
      };
      const { id, created } = await locations.saveLocation(ctx, caller.accountId, input, r.location_id);
      return ok({
        message: created ? "Location has been successfully created." : "Location has been successfully updated.",
        location_id: id,
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-location",
    summary: "Read up to 10 locations by id (deleted ones too, with deleted: 1)",
    tags,
    access: "read",
    params: S.GetLocationParams,
    refs: { location_ids: ownedLocation.list(10) },
    response: S.LocationsResponse,
    handler: async ({ config }, p, r) => {
      const rows = r.location_ids;
      const byIds = rows.length > 0 ? answers.get(rows[0]) : undefined;
      const kept = byIds?.get(p.location_ids);
      if (kept && kept.rows.length === rows.length && kept.rows.every((row, i) => row === rows[i])) return new SerializedJson(kept.bytes);
      // Rows come from the read cache while the catalogue is unchanged: each keeps its JSON.
      let text = '{"status":"success","data":[';
      rows.forEach((row, i) => {
        let json = recordJson.get(row);
        if (json === undefined) {
          json = JSON.stringify(locations.toLocationRecord(row, config.publicUrl));
          recordJson.set(row, json);
        }
        text += i === 0 ? json : `,${json}`;
      });
      const bytes = Buffer.from(`${text}]}`, "utf8");
      if (rows.length > 0) {
        let map = byIds;
        if (!map) {
          map = new Map();
          answers.set(rows[0], map);
        }
        if (map.size >= ANSWERS_PER_ROW) map.clear();
        map.set(p.location_ids, { rows, bytes });
      }
      return new SerializedJson(bytes);
    },
  });

  api.route({
    method: "GET",
    url: "/api/location-list",
    summary: "All of the caller's locations that are not deleted, ordered by id",
    tags,
    access: "read",
    params: S.LocationListParams,
    response: S.LocationsResponse,
    handler: async ({ ctx, caller, config }) => {
      const rows = (await ctx.repos.locations.listLive(ctx.db, caller.accountId)).filter((l) => inScope(caller, l.id));
      return ok({ data: rows.map((row) => locations.toLocationRecord(row, config.publicUrl)) });
    },
  });

  api.route({
    method: "POST",
    url: "/api/delete-location",
    summary: "Soft-delete a location (account identifier only); its devices are unassigned",
    tags,
    access: "parent",
    params: S.DeleteLocationParams,
    refs: { location_id: liveLocation.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx }, _p, r) => {
      await locations.deleteLocation(ctx, r.location_id);
      return ok({ message: "Location has been successfully deleted." });
    },
  });

  api.route({
    method: "POST",
    url: "/api/device-assign-location",
    summary: "Assign a device to a location (location_id 0 disassociates it)",
    tags,
    access: "write",
    params: S.AssignDeviceParams,
    refs: { location_id: liveLocation.optionalOne(), device_id: ownedDevice.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx }, _p, r) => {
      await locations.assignDevice(ctx, r.device_id, r.location_id);
      return ok({ message: "Device has been successfully assigned to Location." });
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-location-devices",
    summary: "Devices assigned to a location",
    tags,
    access: "read",
    params: S.LocationIdParams,
    refs: { location_id: liveLocation.one() },
    response: S.LocationDevicesResponse,
    handler: async ({ ctx }, _p, r) => ok({ devices: await locations.locationDevices(ctx, r.location_id) }),
  });

  api.route({
    method: "GET",
    url: "/api/get-location-options",
    summary: "A location's session and bandwidth settings",
    tags,
    access: "read",
    params: S.LocationIdParams,
    refs: { location_id: liveLocation.one() },
    response: S.LocationOptionsResponse,
    handler: async ({ ctx }, _p, r) => ok({ data: locations.toOptionsRecord(await locations.loadOptions(ctx, r.location_id.id)) }),
  });

  api.route({
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
    // update: the omitted DNS and list values are read, then written back; two calls take turns.
    refs: { location_id: liveLocation.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx, config }, p, r) => {
      await locations.setSessionAndBandwidth(ctx, r.location_id, {
        sessionTimeLimit: p.session_time_limit ?? 0,
        maxBandwidthDown: p.max_bandwidth ?? 0,
        maxBandwidthUp: p.max_bandwidth_up ?? 0,
        dailyBandwidthCap: p.daily_bandwidth_cap ?? 0,
        contentFilter: p.content_filter === true,
        dnsServer1: p.dns_server_1,
        dnsServer2: p.dns_server_2,
        whitelist: p.whitelist,
        blacklist: p.blacklist,
      }, config);
      return ok({ message: "Location Session and Bandwidth Info has been set." });
    },
  });
}
