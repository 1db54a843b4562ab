/**
 * The campaign preview, `POST /console/preview`: the portal's own login page for the campaign with
 * the editor's unsaved changes, as a guest's phone shows it (the console frames it at phone width).
 * The saved logo is linked at its portal address, as guests get it; a new one not saved yet is
 * shown inline (a data URL, allowed by this response's CSP only): nothing is stored before Save.
 */
import type { AppDeps } from "../app-deps.js";
import type { Config } from "../config.js";
import type { ApiRouter } from "../http/api-route.js";
import { parseLogo } from "../modules/campaigns/campaign-logo.js";
import { LOGIN_METHODS, parsePayload } from "../modules/campaigns/campaign-payload.js";
import { CAMPAIGN_BODY_LIMIT } from "../modules/campaigns/campaigns.schemas.js";
import { readableCampaign } from "../modules/campaigns/campaigns.refs.js";
import { type PagePayload, logoAlt, pagePayload } from "../portal/page-payload.js";
import { renderLogin } from "../portal/portal-render.js";
import { TermsSanitizer } from "../portal/views/terms.js";
import { shippedLanguage } from "../i18n/languages.js";
import { parseTranslations } from "../modules/campaigns/campaign-translations.js";
import * as S from "./console.schemas.js";

export function previewRoutes(api: ApiRouter<AppDeps>, config: Readonly<Config>): void {
  const terms = new TermsSanitizer();

  api.route({
    method: "POST",
    url: "/console/preview",
    via: "console",
    summary: "The portal's login page for a campaign with the editor's unsaved changes",
    tags: ["Console"],
    // Writes nothing (read-only users preview too); a POST, so the CSRF token is asked.
    access: "read",
    params: S.PreviewParams,
    // A built-in template or one of the account's campaigns (deleted ones too: their editor may be open).
    refs: { campaign_id: readableCampaign.one() },
    bodyLimit: CAMPAIGN_BODY_LIMIT,
    response: S.PreviewResponse,
    produces: ["text/html"],
    handler: async ({ reply }, p, r) => {
      const campaign = r.campaign_id;
      // A copy: the page payload is shared between requests, and the preview changes it.
      let payload: PagePayload = campaign ? structuredClone(pagePayload(campaign)) : { ...parsePayload("{}"), pageLogo: null };
      const fields = p as Record<string, unknown>;
      const text = (k: keyof typeof p, max: number) => (typeof p[k] === "string" ? (p[k] as string).slice(0, max) : undefined);
      payload.title_text = text("title_text", 255) ?? payload.title_text;
      payload.footer_text = text("footer_text", 1000) ?? payload.footer_text;
      payload.ssid = text("ssid", 32) ?? payload.ssid;
      payload.custom_terms = text("custom_terms", 20000) ?? payload.custom_terms;
      const color = (k: "text_color" | "background") => {
        const v = text(k, 6);
        return v !== undefined && /^[0-9a-fA-F]{6}$/.test(v) ? v : undefined;
      };
      payload.text_color = color("text_color") ?? payload.text_color;
      payload.background = color("background") ?? payload.background;
      for (const m of LOGIN_METHODS) {
        const v = fields[`login_${m}`];
        if (v === "1" || v === "0") payload.login_options[m] = v === "1";
      }
      for (const k of ["terms_required", "marketing_opt_in"] as const) {
        const v = p[k];
        if (v === "1" || v === "0") payload.consent[k] = v === "1";
      }
      payload.button_text = text("button_text", 60) ?? payload.button_text;
      const defaultLanguage = text("default_language", 16);
      if (defaultLanguage && shippedLanguage(defaultLanguage)) payload.default_language = shippedLanguage(defaultLanguage)!.tag;
      const translations = parseTranslations(p.translations);
      if (translations && "translations" in translations) payload.translations = translations.translations;
      const marketingText = text("marketing_text", 1000);
      if (marketingText) payload.consent.marketing_text = marketingText;
      // logo: absent keeps the saved one; "" removes it; a data URL is the editor's new one (shown
      // only when it would be accepted on save: the editor shows why not).
      const alt = logoAlt(payload, campaign?.name ?? "");
      let inline = false;
      if (p.logo === "") payload = { ...payload, pageLogo: null };
      else if (typeof p.logo === "string") {
        const parsed = parseLogo(p.logo);
        inline = "logo" in parsed;
        payload = { ...payload, pageLogo: inline ? { src: p.logo, alt } : null };
      } else if (payload.pageLogo) payload = { ...payload, pageLogo: { ...payload.pageLogo, alt } };
      // One language at a time (the editor previews each language the campaign offers).
      const lang = p.preview_language ? p.preview_language : payload.default_language;
      const page = renderLogin(reply, { config, terms }, payload, "preview", null, { lang }, { notice: { key: "notice.preview" } });
      // Framed by the console itself only.
      let csp = String(reply.getHeader("content-security-policy")).replace("frame-ancestors 'none'", "frame-ancestors 'self'");
      if (inline) csp = csp.replace("img-src 'self'", "img-src 'self' data:");
      reply.header("content-security-policy", csp).header("x-frame-options", "SAMEORIGIN");
      return page;
    },
  });
}
