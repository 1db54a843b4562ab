import { type ApiRouter, ok } from "../../http/api-route.js";
import { inScope } from "../../http/caller.js";
import { msg, validationError } from "../../errors.js";
import type { Ctx } from "../context.js";
import { DEVICE_MODELS, findDeviceModel } from "./device-models.js";
import { ownedDevice } from "./devices.refs.js";
import * as S from "./devices.schemas.js";
import * as devices from "./devices.service.js";

const tags = ["Devices"];

export function deviceRoutes(api: ApiRouter<Ctx>): void {
  // GET as in the specification, POST as the published client sends it: one route per method, since
  // Fastify refuses a body schema on GET, and the OpenAPI shows each form.
  for (const method of ["GET", "POST"] as const) {
    api.route({
      method,
      url: "/api/create-device",
      summary: "Register an access point; answers its own RADIUS shared secret",
      description: "GET as in the specification, POST (form or JSON) as the published client sends it.",
      tags,
      access: "write",
      params: S.CreateDeviceParams,
      checks: [
        ({ caller, fail }) => {
          if (caller.locationScope !== null) fail("identifier", msg.scopedCreate("devices"));
        },
        ({ p, fail }) => {
          if (p.model_id !== undefined && !findDeviceModel(p.model_id.trim())) fail("model_id", msg.invalid("model_id"));
        },
        async ({ ctx, p, fail }) => {
          if (p.mac_address !== undefined && (await devices.isMacTaken(ctx, p.mac_address))) fail("mac_address", msg.taken("mac_address"));
        },
      ],
      response: S.CreateDeviceResponse,
      handler: async ({ ctx, caller }, p) => {
        const row = await devices.createDevice(ctx, caller.accountId, { name: p.device_name, mac: p.mac_address, modelId: p.model_id });
        return ok({
          message: "Device has been successfully created.",
          device_id: row.id,
          radius_secret: row.radius_secret,
          data: devices.toDeviceRecord(row, true),
        });
      },
    });
  }

  api.route({
    method: "GET",
    url: "/api/get-device",
    summary: "Read up to 10 of the caller's devices by id",
    tags,
    access: "read",
    params: S.GetDeviceParams,
    refs: { device_ids: ownedDevice.list(10) },
    response: S.DevicesResponse,
    handler: async ({ caller }, _p, r) => {
      const now = Date.now();
      return ok({ data: r.device_ids.map((row) => devices.toDeviceRecord(row, !caller.readonly, now)) });
    },
  });

  api.route({
    method: "GET",
    url: "/api/device-list",
    summary: "All of the caller's devices, ordered by id",
    tags,
    access: "read",
    params: S.DeviceListParams,
    response: S.DevicesResponse,
    handler: async ({ ctx, caller }) => {
      const rows = (await ctx.repos.devices.listByAccount(ctx.db, caller.accountId)).filter((d) => caller.locationScope === null || (d.location_id !== null && inScope(caller, d.location_id)));
      const now = Date.now();
      return ok({ data: rows.map((row) => devices.toDeviceRecord(row, !caller.readonly, now)) });
    },
  });

  api.route({
    method: "GET",
    url: "/api/device-models",
    summary: "The access point models create-device accepts as model_id",
    tags,
    access: "read",
    params: S.DeviceListParams,
    response: S.DeviceModelsResponse,
    handler: async () => ok({ data: DEVICE_MODELS.map(({ id, vendor, name }) => ({ id, vendor, name })) }),
  });

  api.route({
    method: "POST",
    url: "/api/rotate-device-secret",
    summary: "Give a device a new RADIUS shared secret, random or the one given (the old one stops working)",
    description:
      "Several access points behind one RADIUS client (a Meraki SSID, a SmartZone zone) send every Access-Request with one secret: " +
      "give each of their devices that secret with radius_secret.",
    tags,
    access: "write",
    params: S.RotateSecretParams,
    refs: { device_id: ownedDevice.one() },
    response: S.RotateSecretResponse,
    handler: async ({ ctx }, p, r) => {
      const device = await devices.rotateRadiusSecret(ctx, r.device_id, p.radius_secret);
      return ok({ message: "The device has a new RADIUS secret. Enter it on the gateway.", device_id: device.id, radius_secret: device.radius_secret });
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-device-config",
    summary: "The configuration to apply on a device's gateway, with its secret, for its location's options",
    description:
      "MikroTik: a RouterOS script (.rsc); OpenWrt with openNDS: a uci batch file; CoovaChilli: /etc/chilli/config; " +
      "controller and cloud families (UniFi, Omada, Meraki, Aruba, RUCKUS, Cambium): the values to enter on the vendor's screens " +
      "and what the service sets through the controller. The file carries the device's RADIUS secret: read-only sub-users cannot read it. " +
      "The device must be assigned to a location (docs/gateways.md).",
    tags,
    // "write": the file holds the secret. No transaction: a controller family's walled garden is pushed to its controller meanwhile.
    access: "write",
    transaction: false,
    params: S.DeviceIdParams,
    refs: { device_id: ownedDevice.one() },
    checks: [
      ({ refs, fail }) => {
        if (refs.device_id && refs.device_id.location_id === null) fail("device_id", NOT_ASSIGNED);
      },
    ],
    response: S.DeviceConfigResponse,
    handler: async ({ ctx, config }, _p, r) => {
      const file = await ctx.deviceConfigs?.forDevice(ctx, r.device_id, config);
      // Its location deleted since (a deleted location keeps its devices' location_id).
      if (!file) throw validationError("device_id", NOT_ASSIGNED);
      return ok({ data: file });
    },
  });
}

const NOT_ASSIGNED = "The selected device is not assigned to a location.";
