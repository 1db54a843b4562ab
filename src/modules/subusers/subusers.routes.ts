import { msg } from "../../errors.js";
import { type ApiRouter, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { liveLocation } from "../locations/locations.refs.js";
import * as S from "./subusers.schemas.js";
import { hashPassword } from "../accounts/password.js";
import { ownedSubUser } from "./subusers.refs.js";
import * as subUsers from "./subusers.service.js";

const tags = ["Sub-users"];

/**
 * The parameter under which the e-mail arrived: the specification's name, or the alias the
 * published client sends. Errors are reported under the name the client used.
 */
function emailParam(given: (param: string) => boolean): "email_address" | "email" {
  return given("email_address") || !given("email") ? "email_address" : "email";
}

const yes = (v: string) => v === "1" || v === "true";

export function subUserRoutes(api: ApiRouter<Ctx>): void {
  // GET as in the specification, POST as the published client sends it: one route per method, since
  // Fastify refuses a body schema on GET, and the OpenAPI shows each form.
  for (const method of ["GET", "POST"] as const) {
    api.route({
      method,
      url: "/api/create-sub-user",
      summary: "Create a sub-user of the calling account (account identifier only); answers its own identifier once",
      description:
        "GET as in the specification, POST (form or JSON) as the published client sends it. Accepts email for " +
        "email_address, mobile_phone for phone_number, and true/false for quickreport and readonly.",
      tags,
      // A read-only sub-user hears that it is read-only before anything else; other sub-users that they may not.
      access: "manage-sub-users",
      params: S.CreateSubUserParams,
      refs: { quickreport_location_id: liveLocation.one(), location_ids: liveLocation.list(1000) },
      checks: [
        async ({ ctx, p, given, fail }) => {
          const param = emailParam(given);
          const email = p[param];
          if (!given("email_address") && !given("email")) fail("email_address", msg.required("email_address"));
          else if (email !== undefined && (await subUsers.isEmailTaken(ctx, email))) fail(param, msg.taken(param));
        },
      ],
      errorParams: {
        "email-taken": (p) => (p.email_address !== undefined ? "email_address" : "email"),
        "location-gone": () => "quickreport_location_id",
      },
      // The password hash is slow on purpose: the service hashes first, then writes in its own transaction.
      transaction: false,
      response: S.CreateSubUserResponse,
      handler: async ({ ctx, caller }, p, r) => {
        const input = {
          firstName: p.first_name,
          lastName: p.last_name,
          email: (p.email_address ?? p.email)!,
          phoneNumber: p.phone_number ?? p.mobile_phone,
          password: p.password,
          quickreport: yes(p.quickreport),
          readonly: yes(p.readonly),
          locationIds: r.location_ids?.map((l) => l.id),
        };
        const { subUserId, identifier } = await subUsers.createSubUser(ctx, caller.accountId, input, r.quickreport_location_id);
        return ok({ message: "Sub User has been successfully created.", sub_user_id: subUserId, identifier, device_id: subUserId });
      },
    });
  }

  api.route({
    method: "GET",
    url: "/api/subuser-list",
    summary: "The sub-users of the caller's account, ordered by id (passwords are never returned)",
    tags,
    access: "read",
    params: S.SubUserListParams,
    response: S.SubUsersResponse,
    handler: async ({ ctx, caller }) => {
      const rows = await ctx.repos.subUsers.listByAccount(ctx.db, caller.accountId);
      return ok({ data: rows.map(subUsers.toSubUserRecord) });
    },
  });

  api.route({
    method: "POST",
    url: "/api/update-sub-user",
    summary: "Change a sub-user of the calling account: names, e-mail, password, read-only, quick report, scope (account identifier only)",
    description:
      "Fields not given keep their value. A new password ends the sub-user's console sessions; read-only and the scope " +
      "(location_ids, empty for every location) apply from its next request on every instance.",
    tags,
    access: "manage-sub-users",
    params: S.UpdateSubUserParams,
    refs: { sub_user_id: ownedSubUser.one("update"), quickreport_location_id: liveLocation.one(), location_ids: liveLocation.list(1000) },
    checks: [
      async ({ ctx, p, given, refs, fail }) => {
        const param = emailParam(given);
        const email = p[param];
        if (email === undefined || refs.sub_user_id === undefined) return;
        const holder = await ctx.repos.subUsers.findByEmail(ctx.db, email.trim().toLowerCase());
        if (holder && holder.id !== refs.sub_user_id.id) fail(param, msg.taken(param));
      },
    ],
    errorParams: { "email-taken": (p) => (p.email_address !== undefined ? "email_address" : "email") },
    response: S.SubUserWriteResponse,
    handler: async ({ ctx }, p, r) => {
      // Hashed inside the route's transaction: a password change is rare, and the row is held meanwhile.
      const passwordHash = p.password === undefined ? undefined : await hashPassword(p.password);
      const phone = p.phone_number ?? p.mobile_phone;
      await subUsers.updateSubUser(
        ctx,
        r.sub_user_id,
        {
          firstName: p.first_name,
          lastName: p.last_name,
          email: p.email_address ?? p.email,
          phoneNumber: phone,
          quickreport: p.quickreport === undefined ? undefined : yes(p.quickreport),
          readonly: p.readonly === undefined ? undefined : yes(p.readonly),
          quickreportLocationId: r.quickreport_location_id?.id,
          locationIds: r.location_ids?.map((l) => l.id),
        },
        passwordHash,
      );
      return ok({ message: "Sub User has been successfully updated." });
    },
  });

  for (const [action, disabled, done] of [
    ["disable", true, "disabled"],
    ["enable", false, "enabled"],
  ] as const) {
    api.route({
      method: "POST",
      url: `/api/${action}-sub-user`,
      summary:
        action === "disable"
          ? "Disable a sub-user: its sign-ins, API calls and quick reports stop at once on every instance; its record stays"
          : "Enable a disabled sub-user again",
      tags,
      access: "manage-sub-users",
      params: S.SubUserIdParams,
      refs: { sub_user_id: ownedSubUser.one("update") },
      response: S.SubUserWriteResponse,
      handler: async ({ ctx }, _p, r) => {
        await subUsers.setSubUserDisabled(ctx, r.sub_user_id, disabled);
        return ok({ message: `Sub User has been successfully ${done}.` });
      },
    });
  }

  api.route({
    method: "POST",
    url: "/api/delete-sub-user",
    summary: "Delete a sub-user with its identifier and console sessions; they stop at once on every instance",
    tags,
    access: "manage-sub-users",
    params: S.SubUserIdParams,
    refs: { sub_user_id: ownedSubUser.one("update") },
    response: S.SubUserWriteResponse,
    handler: async ({ ctx }, _p, r) => {
      await subUsers.deleteSubUser(ctx, r.sub_user_id);
      return ok({ message: "Sub User has been successfully deleted." });
    },
  });
}
