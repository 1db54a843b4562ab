import type { Static } from "@sinclair/typebox";
import { msg } from "../../errors.js";
import { type ApiRouter, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { liveLocation } from "../locations/locations.refs.js";
import { loginFlagsOf, parseLoginOptions } from "./campaign-login-options.js";
import { parseLogo } from "./campaign-logo.js";
import { parsePayload } from "./campaign-payload.js";
import { contrastWarning, parseTranslations } from "./campaign-translations.js";
import { shippedLanguage } from "../../i18n/languages.js";
import { ownCampaign, readableCampaign, usableCampaign } from "./campaigns.refs.js";
import * as S from "./campaigns.schemas.js";
import * as campaigns from "./campaigns.service.js";

const tags = ["Campaigns"];

type WriteParams = Partial<Static<typeof S.CampaignWriteParams>>;

/** The payload changes a create-or-update call asks for; login_options must have parsed. */
function changesOf(p: WriteParams): campaigns.CampaignChanges {
  const options = parseLoginOptions(p.login_options);
  return {
    ssid: p.ssid,
    text_color: p.text_color,
    background: p.background,
    footer_text: p.footer_text,
    title_text: p.title_text,
    custom_terms: p.custom_terms,
    redirect_url: p.redirect_url,
    loginMethods: options && "methods" in options ? options.methods : undefined,
    loginFlags: loginFlagsOf(p),
    consent: {
      terms_required: p.terms_required === undefined ? undefined : p.terms_required === "1",
      marketing_opt_in: p.marketing_opt_in === undefined ? undefined : p.marketing_opt_in === "1",
      marketing_text: p.marketing_text === undefined ? undefined : p.marketing_text.trim(),
    },
    logo: p.logo,
    default_language: p.default_language === undefined ? undefined : shippedLanguage(p.default_language)?.tag,
    button_text: p.button_text,
    translations: (() => {
      const t = parseTranslations(p.translations);
      return t && "translations" in t ? t.translations : undefined;
    })(),
  };
}

export function campaignRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/create-or-update-campaign",
    summary: "Create a campaign from a template, or update one when campaign_id is given",
    description:
      "Create copies template_campaign_id (a built-in template or an own campaign) and applies the given fields. " +
      "Update changes only the fields given; name is always required. login_options, when given, replaces every login_*.",
    tags,
    access: "write",
    params: S.CampaignWriteParams,
    bodyLimit: S.CAMPAIGN_BODY_LIMIT,
    // campaign_id wins when both are given: the template only matters when a campaign is created.
    refs: { campaign_id: ownCampaign.one("update"), template_campaign_id: usableCampaign.one().unlessGiven("campaign_id") },
    checks: [
      ({ given, fail }) => {
        if (!given("campaign_id") && !given("template_campaign_id")) fail("template_campaign_id", msg.required("template_campaign_id"));
      },
      ({ p, fail }) => {
        if (p.logo === undefined || p.logo === "") return;
        const logo = parseLogo(p.logo);
        if ("sentence" in logo) fail("logo", logo.sentence);
      },
      ({ p, fail }) => {
        if (p.default_language !== undefined && !shippedLanguage(p.default_language)) fail("default_language", msg.invalid("default_language"));
        const t = parseTranslations(p.translations);
        if (t && "sentences" in t) for (const sentence of t.sentences) fail("translations", sentence);
      },
      ({ p, refs, fail }) => {
        const options = parseLoginOptions(p.login_options);
        if (options && "sentences" in options) {
          for (const sentence of options.sentences) fail("login_options", sentence);
          return;
        }
        const base = refs.campaign_id ?? refs.template_campaign_id;
        // Throws no-login-method when nothing would be left to log in with.
        if (base) campaigns.composePayload(parsePayload(base.payload), changesOf(p));
      },
    ],
    response: S.CampaignWriteResponse,
    handler: async ({ ctx, caller, config }, p, r) => {
      const target = r.campaign_id ? { update: r.campaign_id } : { copyOf: r.template_campaign_id! };
      const { row, created } = await campaigns.saveCampaign(ctx, caller.accountId, p.name, changesOf(p), target);
      const data = campaigns.toCampaignRecord(row, config.publicUrl);
      const saved = parsePayload(row.payload);
      const warning = contrastWarning(saved.text_color, saved.background);
      return ok({
        ...(warning ? { warnings: [warning] } : {}),
        message: created ? "Campaign has been created successfully." : "Campaign has been updated successfully.",
        campaign_id: row.id,
        campaign_filename: data.campaign_filename,
        campaign_url: data.campaign_url,
        data,
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-campaign",
    summary: "Read up to 10 campaigns by id: own ones (deleted too, with deleted: 1) and built-in templates",
    tags,
    access: "read",
    params: S.GetCampaignParams,
    refs: { campaign_ids: readableCampaign.list(10) },
    response: S.CampaignsResponse,
    handler: async ({ config }, _p, r) => ok({ data: r.campaign_ids.map((row) => campaigns.toCampaignRecord(row, config.publicUrl)) }),
  });

  api.route({
    method: "GET",
    url: "/api/campaign-list",
    summary: "The built-in templates (template: 1) and the caller's campaigns that are not deleted, ordered by id",
    tags,
    access: "read",
    params: S.CampaignListParams,
    response: S.CampaignsResponse,
    handler: async ({ ctx, caller, config }) => {
      const rows = await ctx.repos.campaigns.listUsable(ctx.db, caller.accountId);
      return ok({ data: rows.map((row) => campaigns.toCampaignRecord(row, config.publicUrl)) });
    },
  });

  api.route({
    method: "POST",
    url: "/api/delete-campaign",
    summary: "Soft-delete an own campaign; it stops being the default campaign of any location",
    tags,
    access: "write",
    params: S.DeleteCampaignParams,
    refs: { campaign_id: ownCampaign.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx, caller }, _p, r) => {
      await campaigns.deleteCampaign(ctx, caller.accountId, r.campaign_id);
      return ok({ message: "Campaign has been successfully deleted." });
    },
  });

  api.route({
    method: "POST",
    url: "/api/location-assign-campaign",
    summary: "Make a campaign the location's default (location_id 0 removes it as default everywhere)",
    tags: ["Locations"],
    access: "write",
    params: S.AssignCampaignParams,
    refs: { location_id: liveLocation.optionalOne("update"), campaign_id: usableCampaign.optionalOne() },
    checks: [
      ({ p, fail }) => {
        if (p.campaign_id === 0 && p.location_id === 0) fail("campaign_id", msg.invalid("campaign_id"));
      },
    ],
    response: S.MessageResponse,
    handler: async ({ ctx, caller }, _p, r) => {
      await campaigns.assignCampaign(ctx, caller.accountId, r.location_id, r.campaign_id);
      return ok({ message: "Campaign has been successfully assigned to Location." });
    },
  });
}
