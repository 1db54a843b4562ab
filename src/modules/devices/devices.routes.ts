import type { FastifyInstance } from "fastify";
import { type ApiRouteDef, ok, registerApiRoute } from "../../http/api-route.js";
import { parseIdList } from "../../http/validation.js";
import { DEVICE_MODELS } from "./device-models.js";
import { deviceRepository } from "./devices.repository.js";
import * as S from "./devices.schemas.js";
import * as devices from "./devices.service.js";

const tags = ["Devices"];

const createDevice: ApiRouteDef<typeof S.CreateDeviceParams, typeof S.CreateDeviceResponse> = {
  method: "GET",
  url: "/api/create-device",
  summary: "Register an access point; answers its own RADIUS shared secret",
  description: "GET as in the specification, POST (form or JSON) as the published client sends it.",
  tags,
  access: "write",
  params: S.CreateDeviceParams,
  response: S.CreateDeviceResponse,
  handler: async ({ db, caller }, p, bag) => {
    const row = await devices.createDevice(db, caller.accountId, p, bag);
    return ok({
      message: "Device has been successfully created.",
      device_id: row.id,
      radius_secret: row.radius_secret,
      data: devices.toDeviceRecord(row, true),
    });
  },
};

export function deviceRoutes(app: FastifyInstance): void {
  // One route per method: Fastify refuses a body schema on GET, and the OpenAPI shows each form.
  registerApiRoute(app, { ...createDevice, method: "GET" });
  registerApiRoute(app, { ...createDevice, method: "POST" });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/get-device",
    summary: "Read up to 10 of the caller's devices by id",
    tags,
    access: "read",
    params: S.GetDeviceParams,
    response: S.DevicesResponse,
    handler: async ({ db, caller }, p, bag) => {
      const ids = parseIdList(p.device_ids, "device_ids", bag, 10);
      const rows = await devices.readDevices(db, caller.accountId, ids, "device_ids", bag);
      bag.throwIfAny();
      const now = Date.now();
      return ok({ data: rows.map((r) => devices.toDeviceRecord(r, !caller.readonly, now)) });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/device-list",
    summary: "All of the caller's devices, ordered by id",
    tags,
    access: "read",
    params: S.DeviceListParams,
    response: S.DevicesResponse,
    handler: async ({ db, caller }) => {
      const rows = await deviceRepository.listByAccount(db, caller.accountId);
      const now = Date.now();
      return ok({ data: rows.map((r) => devices.toDeviceRecord(r, !caller.readonly, now)) });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/device-models",
    summary: "The access point models create-device accepts as model_id",
    tags,
    access: "read",
    params: S.DeviceListParams,
    response: S.DeviceModelsResponse,
    handler: async () => ok({ data: DEVICE_MODELS.map((m) => ({ ...m })) }),
  });
}
