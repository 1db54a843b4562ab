/**
 * The campaign preview, `POST /console/preview`: the portal's own login page for the campaign with
 * the editor's unsaved changes, as a guest's phone shows it (the console frames it at phone width).
 * The saved logo is linked at its portal address, as guests get it; a new one not saved yet is
 * shown inline (a data URL, allowed by this response's CSP only): nothing is stored before Save.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { AppError } from "../errors.js";
import { parseLogo } from "../modules/campaigns/campaign-logo.js";
import { LOGIN_METHODS, parsePayload } from "../modules/campaigns/campaign-payload.js";
import { CAMPAIGN_BODY_LIMIT } from "../modules/campaigns/campaigns.schemas.js";
import { findCampaign } from "../modules/campaigns/campaigns.service.js";
import type { ConsoleUser } from "../modules/console/console.service.js";
import { type PagePayload, logoAlt, pagePayload } from "../portal/page-payload.js";
import { renderLogin } from "../portal/portal-render.js";
import { TermsSanitizer } from "../portal/views/terms.js";
import { shippedLanguage } from "../i18n/languages.js";
import { parseTranslations } from "../modules/campaigns/campaign-translations.js";

export function previewRoutes(app: FastifyInstance, deps: AppDeps, requireUser: (request: FastifyRequest, write: boolean) => Promise<ConsoleUser>): void {
  const { config } = app;
  const terms = new TermsSanitizer();

  app.post("/console/preview", { schema: { hide: true }, bodyLimit: Math.max(config.bodyLimit, CAMPAIGN_BODY_LIMIT) }, async (request, reply) => {
    const user = await requireUser(request, true);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const id = Number(body.campaign_id);
    const campaign = Number.isSafeInteger(id) && id > 0 ? await findCampaign(deps, id) : undefined;
    if (campaign && campaign.account_id !== null && campaign.account_id !== user.caller.accountId) {
      throw new AppError(404, { campaign_id: ["The selected campaign_id is invalid."] });
    }
    // A copy: the page payload is shared between requests, and the preview changes it.
    let payload: PagePayload = campaign ? structuredClone(pagePayload(campaign)) : { ...parsePayload("{}"), pageLogo: null };
    const text = (k: string, max: number) => (typeof body[k] === "string" ? (body[k] as string).slice(0, max) : undefined);
    payload.title_text = text("title_text", 255) ?? payload.title_text;
    payload.footer_text = text("footer_text", 1000) ?? payload.footer_text;
    payload.ssid = text("ssid", 32) ?? payload.ssid;
    payload.custom_terms = text("custom_terms", 20000) ?? payload.custom_terms;
    const color = (k: string) => {
      const v = text(k, 6);
      return v !== undefined && /^[0-9a-fA-F]{6}$/.test(v) ? v : undefined;
    };
    payload.text_color = color("text_color") ?? payload.text_color;
    payload.background = color("background") ?? payload.background;
    for (const m of LOGIN_METHODS) {
      const v = body[`login_${m}`];
      if (v === "1" || v === "0") payload.login_options[m] = v === "1";
    }
    for (const k of ["terms_required", "marketing_opt_in"] as const) {
      const v = body[k];
      if (v === "1" || v === "0") payload.consent[k] = v === "1";
    }
    payload.button_text = text("button_text", 60) ?? payload.button_text;
    const defaultLanguage = text("default_language", 16);
    if (defaultLanguage && shippedLanguage(defaultLanguage)) payload.default_language = shippedLanguage(defaultLanguage)!.tag;
    const translations = parseTranslations(body.translations);
    if (translations && "translations" in translations) payload.translations = translations.translations;
    const marketingText = text("marketing_text", 1000);
    if (marketingText) payload.consent.marketing_text = marketingText;
    // logo: absent keeps the saved one; "" removes it; a data URL is the editor's new one (shown
    // only when it would be accepted on save: the editor shows why not).
    const alt = logoAlt(payload, campaign?.name ?? "");
    let inline = false;
    if (body.logo === "") payload = { ...payload, pageLogo: null };
    else if (typeof body.logo === "string") {
      const parsed = parseLogo(body.logo);
      inline = "logo" in parsed;
      payload = { ...payload, pageLogo: inline ? { src: body.logo, alt } : null };
    } else if (payload.pageLogo) payload = { ...payload, pageLogo: { ...payload.pageLogo, alt } };
    // One language at a time (the editor previews each language the campaign offers).
    const lang = typeof body.preview_language === "string" && body.preview_language !== "" ? body.preview_language : payload.default_language;
    const page = renderLogin(reply, { config, terms }, payload, "preview", null, { lang }, { notice: { key: "notice.preview" } });
    // Framed by the console itself only.
    let csp = String(reply.getHeader("content-security-policy")).replace("frame-ancestors 'none'", "frame-ancestors 'self'");
    if (inline) csp = csp.replace("img-src 'self'", "img-src 'self' data:");
    reply.header("content-security-policy", csp).header("x-frame-options", "SAMEORIGIN");
    return page;
  });
}
