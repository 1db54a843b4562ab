/** GET /api/device-mikrotik-login-html: the login.html to upload to a MikroTik device (mikrotik-login.ts). */
import { validationError } from "../../errors.js";
import type { ApiRouter } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { ownedDevice } from "../devices/devices.refs.js";
import { findLiveLocation } from "./locations.service.js";
import { MikrotikLoginHtmlParams, MikrotikLoginHtmlResponse, isMikrotikDevice, mikrotikLoginHtml } from "./mikrotik-login.js";

const NOT_ASSIGNED = "The selected device is not assigned to a location.";

export function mikrotikLoginRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "GET",
    url: "/api/device-mikrotik-login-html",
    summary: "The login.html to upload to a MikroTik HotSpot device",
    description:
      "An HTML file (not JSON) that RouterOS serves to guests: it sends them to the portal page of the device's location " +
      "with the router's variables. The device must be a MikroTik model assigned to a location; download it again after " +
      "moving the device to another location.",
    tags: ["Devices"],
    access: "read",
    params: MikrotikLoginHtmlParams,
    refs: { device_id: ownedDevice.one() },
    checks: [
      ({ refs, fail }) => {
        const device = refs.device_id;
        if (!device) return;
        if (!isMikrotikDevice(device)) fail("device_id", "The selected device is not a MikroTik model.");
        else if (device.location_id === null) fail("device_id", NOT_ASSIGNED);
      },
    ],
    response: MikrotikLoginHtmlResponse,
    produces: ["text/html"],
    handler: async ({ ctx, config, reply }, _p, r) => {
      const device = r.device_id;
      const location = device.location_id === null ? undefined : await findLiveLocation(ctx, device.location_id);
      // Its location deleted since (a deleted location keeps its devices' location_id).
      if (!location || location.account_id !== device.account_id) throw validationError("device_id", NOT_ASSIGNED);
      reply.header("content-type", "text/html; charset=utf-8").header("content-disposition", 'attachment; filename="login.html"').header("cache-control", "no-store");
      return mikrotikLoginHtml(config.publicUrl, location, device);
    },
  });
}
