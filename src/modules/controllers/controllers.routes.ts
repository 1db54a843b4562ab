import { type ApiRouter, ok } from "../../http/api-route.js";
import { secretBoxKey } from "../../db/secret-box.js";
import { msg } from "../../errors.js";
import { targetRefusal } from "../../outbound-address.js";
import type { Ctx } from "../context.js";
import { liveLocation } from "../locations/locations.refs.js";
import { ownedController } from "./controllers.refs.js";
import * as S from "./controllers.schemas.js";
import * as controllers from "./controllers.service.js";

const tags = ["Controllers"];

export function controllerRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/create-or-update-controller",
    summary: "Register a UniFi, Omada or RUCKUS (SmartZone, RUCKUS One) controller, or update one when controller_id is given",
    description:
      "Give username and password, or (UniFi OS only) api_key; for ruckus, the northbound interface's password (and its user name where it has one). Credentials are write-only: sealed at rest, never returned. " +
      "On update, credentials not given keep their stored value.",
    tags,
    access: "write",
    params: S.ControllerWriteParams,
    refs: { controller_id: ownedController.one("update") },
    checks: [
      ({ p, fail }) => {
        if (p.api_key && p.type === "omada") fail("api_key", "The api_key is only accepted for unifi controllers; give username and password.");
        if (p.api_key && p.type === "ruckus") fail("api_key", "The api_key is only accepted for unifi controllers; give the northbound interface's password.");
        if (p.api_key && (p.username || p.password)) fail("api_key", "Give either api_key or username and password, not both.");
      },
      async ({ ctx, p, refs, fail, config }) => {
        if (p.type === undefined) return;
        const key = await secretBoxKey(ctx.db, config.secretBoxKey);
        const stored = refs.controller_id ? controllers.openCredentials(key, refs.controller_id) : undefined;
        const c = controllers.credentialsOf(inputOf(p), stored);
        if ("missing" in c) fail(c.missing, msg.required(c.missing));
        else if (p.type === "omada" && "apiKey" in c) fail("username", msg.required("username"));
      },
      async ({ p, fail, config }) => {
        if (p.url === undefined) return;
        const why = await targetRefusal(p.url, controllers.controllerRule(config));
        if (why) fail("url", why);
      },
    ],
    response: S.ControllerWriteResponse,
    handler: async ({ ctx, caller, config }, p, r) => {
      const key = await secretBoxKey(ctx.db, config.secretBoxKey);
      const input = inputOf(p);
      const stored = r.controller_id ? controllers.openCredentials(key, r.controller_id) : undefined;
      const credentials = controllers.credentialsOf(input, stored);
      if ("missing" in credentials) throw new Error("credentials were checked");
      const { row, created } = await controllers.saveController(ctx, key, caller.accountId, input, credentials, r.controller_id);
      // New credentials or address: the walled garden of its locations is pushed again once this commits.
      for (const locationId of await ctx.repos.controllers.locationIdsOf(ctx.db, row.id)) ctx.controllerSync?.pushAfterCommit(ctx, locationId, config);
      const [record] = (await controllers.listControllers(ctx, caller.accountId)).filter((c) => c.id === row.id);
      return ok({
        message: created ? "Controller has been successfully created." : "Controller has been successfully updated.",
        controller_id: row.id,
        data: record,
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/controller-list",
    summary: "The caller's controllers, ordered by id (credentials are never returned)",
    tags,
    access: "read",
    params: S.ControllerListParams,
    response: S.ControllersResponse,
    handler: async ({ ctx, caller }) => ok({ data: await controllers.listControllers(ctx, caller.accountId) }),
  });

  api.route({
    method: "POST",
    url: "/api/delete-controller",
    summary: "Delete a controller and its credentials; its locations are left without one",
    tags,
    access: "write",
    params: S.DeleteControllerParams,
    refs: { controller_id: ownedController.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx }, _p, r) => {
      await controllers.deleteController(ctx, r.controller_id);
      return ok({ message: "Controller has been successfully deleted." });
    },
  });

  api.route({
    method: "POST",
    url: "/api/test-controller",
    summary: "Test connection: call the controller and say what failed (unreachable, certificate mismatch, wrong credentials, wrong site)",
    description:
      "Connects to the controller as a guest's grant does (address rule, pinned certificate, timeout), signs in, and checks the site (UniFi: the site's `self`; Omada: the hotspot operator's login, then the site as an administrator; RUCKUS: the northbound interface's password). " +
      "The outcome is stored on the controller (last_status, last_message, last_checked_at in controller-list) and answered; a failing controller is still answered with status success and ok false.",
    tags,
    access: "write",
    // The controller's answer may take CONTROLLER_TIMEOUT_MS: no transaction held meanwhile.
    transaction: false,
    params: S.TestControllerParams,
    refs: { controller_id: ownedController.one() },
    response: S.TestControllerResponse,
    handler: async ({ ctx, config }, _p, r) => {
      if (!ctx.controllerSync) throw new Error("the app has no controller calls");
      return ok({ data: await ctx.controllerSync.test(ctx, r.controller_id.id, config) });
    },
  });

  api.route({
    method: "POST",
    url: "/api/location-assign-controller",
    summary: "Let a controller authorise the guests of a location (controller_id 0 removes it)",
    tags: ["Locations"],
    access: "write",
    params: S.AssignControllerParams,
    refs: { location_id: liveLocation.one("update"), controller_id: ownedController.optionalOne() },
    response: S.MessageResponse,
    handler: async ({ ctx, config }, _p, r) => {
      await controllers.assignController(ctx, r.location_id, r.controller_id);
      ctx.controllerSync?.pushAfterCommit(ctx, r.location_id.id, config);
      return ok({
        message: r.controller_id ? "Controller has been successfully assigned to Location." : "Controller has been successfully removed from Location.",
      });
    },
  });
}

type WriteParams = Partial<import("@sinclair/typebox").Static<typeof S.ControllerWriteParams>>;

function inputOf(p: WriteParams): controllers.ControllerInput {
  return {
    name: p.name ?? "",
    type: p.type ?? "unifi",
    url: p.url ?? "",
    site: p.site,
    username: p.username,
    password: p.password,
    apiKey: p.api_key,
    tlsFingerprint: p.tls_fingerprint,
  };
}
