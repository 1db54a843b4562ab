import type { FastifyInstance } from "fastify";
import { ok, registerApiRoute } from "../../http/api-route.js";
import { parseIdList } from "../../http/validation.js";
import { campaignRepository } from "./campaigns.repository.js";
import * as S from "./campaigns.schemas.js";
import * as campaigns from "./campaigns.service.js";

const tags = ["Campaigns"];

export function campaignRoutes(app: FastifyInstance): void {
  registerApiRoute(app, {
    method: "POST",
    url: "/api/create-or-update-campaign",
    summary: "Create a campaign from a template, or update one when campaign_id is given",
    description:
      "Create copies template_campaign_id (a built-in template or an own campaign) and applies the given fields. " +
      "Update changes only the fields given; name is always required. login_options, when given, replaces every login_*.",
    tags,
    access: "write",
    params: S.CampaignWriteParams,
    response: S.CampaignWriteResponse,
    handler: async ({ db, caller, config }, p, bag) => {
      const { row, created } = await campaigns.saveCampaign(db, caller.accountId, p, bag);
      const data = campaigns.toCampaignRecord(row, config.publicUrl);
      return ok({
        message: created ? "Campaign has been created successfully." : "Campaign has been updated successfully.",
        campaign_id: row.id,
        campaign_filename: data.campaign_filename,
        campaign_url: data.campaign_url,
        data,
      });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/get-campaign",
    summary: "Read up to 10 campaigns by id: own ones (deleted too, with deleted: 1) and built-in templates",
    tags,
    access: "read",
    params: S.GetCampaignParams,
    response: S.CampaignsResponse,
    handler: async ({ db, caller, config }, p, bag) => {
      const ids = parseIdList(p.campaign_ids, "campaign_ids", bag, 10);
      const rows = await campaigns.readCampaigns(db, caller.accountId, ids, "campaign_ids", bag);
      bag.throwIfAny();
      return ok({ data: rows.map((r) => campaigns.toCampaignRecord(r, config.publicUrl)) });
    },
  });

  registerApiRoute(app, {
    method: "GET",
    url: "/api/campaign-list",
    summary: "The built-in templates (template: 1) and the caller's campaigns that are not deleted, ordered by id",
    tags,
    access: "read",
    params: S.CampaignListParams,
    response: S.CampaignsResponse,
    handler: async ({ db, caller, config }) => {
      const rows = await campaignRepository.listUsable(db, caller.accountId);
      return ok({ data: rows.map((r) => campaigns.toCampaignRecord(r, config.publicUrl)) });
    },
  });

  registerApiRoute(app, {
    method: "POST",
    url: "/api/delete-campaign",
    summary: "Soft-delete an own campaign; it stops being the default campaign of any location",
    tags,
    access: "write",
    params: S.DeleteCampaignParams,
    response: S.MessageResponse,
    handler: async ({ db, caller }, p, bag) => {
      await campaigns.deleteCampaign(db, caller.accountId, p.campaign_id, bag);
      return ok({ message: "Campaign has been successfully deleted." });
    },
  });
}
