import { type ApiRouter, dateRangeCheck, ok } from "../../http/api-route.js";
import { addDays } from "../guests/local-day.js";
import type { Ctx } from "../context.js";
import type { AuditFilter } from "./audit.repository.js";
import * as S from "./audit.schemas.js";
import { toAuditRecord } from "./audit.service.js";

const tags = ["Audit log"];

export function auditRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "GET",
    url: "/api/audit-log-list",
    summary: "Who changed what, when and from where in the caller's account: every write through the API, the console and the command line",
    description:
      "Newest first, paged. Owners and unscoped sub-users see the account's whole log; a sub-user with a scope of " +
      "locations sees its own writes only.",
    tags,
    access: "read",
    params: S.AuditLogListParams,
    checks: [
      ({ p, fail }) => {
        if ((p.from_date === undefined) !== (p.to_date === undefined)) fail(p.from_date === undefined ? "from_date" : "to_date", "Give both from_date and to_date, or neither.");
      },
      dateRangeCheck(3650),
    ],
    response: S.AuditLogListResponse,
    handler: async ({ ctx, caller }, p) => {
      const page = p.page ?? 1;
      const perPage = p.per_page ?? 50;
      const filter: AuditFilter = {
        accountId: caller.accountId,
        actorType: p.actor_type,
        subUserId: caller.locationScope !== null && caller.subUserId !== null ? caller.subUserId : p.sub_user_id,
        action: p.action,
        object: p.object,
        from: p.from_date === undefined ? undefined : `${p.from_date} 00:00:00`,
        to: p.to_date === undefined ? undefined : `${addDays(p.to_date, 1)} 00:00:00`,
      };
      const [rows, total, retention] = await Promise.all([
        ctx.repos.audit.list(ctx.db, filter, (page - 1) * perPage, perPage),
        ctx.repos.audit.count(ctx.db, filter),
        ctx.repos.audit.retentionOf(ctx.db, caller.accountId),
      ]);
      return ok({ data: rows.map(toAuditRecord), total, page, per_page: perPage, retention_days: retention });
    },
  });

  api.route({
    method: "POST",
    url: "/api/set-audit-log-retention",
    summary: "How long the account's audit log keeps its entries (default 365 days; 0: for ever)",
    tags,
    access: "parent",
    params: S.AuditRetentionParams,
    response: S.AuditRetentionResponse,
    handler: async ({ ctx, caller }, p) => {
      await ctx.repos.audit.setRetention(ctx.db, caller.accountId, p.retention_days);
      return ok({
        message: p.retention_days === 0 ? "The audit log is kept for ever." : "Audit log retention has been successfully set.",
        retention_days: p.retention_days,
      });
    },
  });
}
