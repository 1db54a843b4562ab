import type { FastifyInstance } from "fastify";
import { httpErrors } from "../../errors.js";
import { type ApiRouteDef, ok, registerApiRoute } from "../../http/api-route.js";
import { subUserRepository } from "./subusers.repository.js";
import * as S from "./subusers.schemas.js";
import * as subUsers from "./subusers.service.js";

const tags = ["Sub-users"];

const createSubUser: ApiRouteDef<typeof S.CreateSubUserParams, typeof S.CreateSubUserResponse> = {
  method: "GET",
  url: "/api/create-sub-user",
  summary: "Create a sub-user of the calling account (account identifier only); answers its own identifier once",
  description:
    "GET as in the specification, POST (form or JSON) as the published client sends it. Accepts email for " +
    "email_address, mobile_phone for phone_number, and true/false for quickreport and readonly.",
  tags,
  // write, not parent: a read-only sub-user hears that it is read-only before anything else.
  access: "write",
  params: S.CreateSubUserParams,
  response: S.CreateSubUserResponse,
  handler: async ({ db, caller }, p, bag) => {
    if (caller.subUserId !== null) throw httpErrors.subUserManagement();
    const { subUserId, identifier } = await subUsers.createSubUser(db, caller.accountId, p, bag);
    return ok({ message: "Sub User has been successfully created.", sub_user_id: subUserId, identifier, device_id: subUserId });
  },
};

export function subUserRoutes(app: FastifyInstance): void {
  // One route per method: Fastify refuses a body schema on GET, and the OpenAPI shows each form.
  registerApiRoute(app, { ...createSubUser, method: "GET" });
  registerApiRoute(app, { ...createSubUser, method: "POST" });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/subuser-list",
    summary: "The sub-users of the caller's account, ordered by id (passwords are never returned)",
    tags,
    access: "read",
    params: S.SubUserListParams,
    response: S.SubUsersResponse,
    handler: async ({ db, caller }) => {
      const rows = await subUserRepository.listByAccount(db, caller.accountId);
      return ok({ data: rows.map(subUsers.toSubUserRecord) });
    },
  });
}
