/**
 * The language of a portal page: the `lang` parameter the language switcher adds to the page's
 * address (a shipped language), else the browser's Accept-Language (RFC 9110 and RFC 4647 lookup
 * among the shipped languages), else the campaign's default language, else English. The
 * parameter is appended to the gateway's own query, which is otherwise left byte for byte as the
 * gateway wrote it (CoovaChilli's `md` signs the whole address): the page reads the gateway's
 * parameters from the address without it. No cookie is involved: a captive network assistant
 * may not keep one, and the choice must survive into the guest's own browser.
 */
import type { FastifyRequest } from "fastify";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, shippedLanguage } from "../i18n/languages.js";
import { languageNegotiator } from "../i18n/negotiate.js";

export const LANG_PARAM = "lang";

/** A request's address split into its path, its query without the switcher's `lang`, and that language. */
export interface SplitUrl {
  /** The address without the switcher's parameter: what the gateway sent. */
  url: string;
  /** Its query (without `?`), as the switcher's links repeat it. */
  query: string;
  /** The shipped language the address asks for, if any. */
  lang: string | undefined;
}

/** Every other item of the query stays as it was, in its order, byte for byte. */
export function splitLangParam(rawUrl: string): SplitUrl {
  const q = rawUrl.indexOf("?");
  if (q < 0) return { url: rawUrl, query: "", lang: undefined };
  // A gateway's redirect carries no `lang=` anywhere: its query is kept whole, without splitting it.
  if (!rawUrl.includes(`${LANG_PARAM}=`, q)) {
    const query = rawUrl.slice(q + 1);
    return { url: query === "" ? rawUrl.slice(0, q) : rawUrl, query, lang: undefined };
  }
  let lang: string | undefined;
  const kept = rawUrl
    .slice(q + 1)
    .split("&")
    .filter((item) => {
      const shipped = item.startsWith(`${LANG_PARAM}=`) ? shippedLanguage(item.slice(LANG_PARAM.length + 1)) : undefined;
      if (shipped) lang = shipped.tag;
      return !shipped;
    });
  const query = kept.join("&");
  return { url: query === "" ? rawUrl.slice(0, q) : `${rawUrl.slice(0, q)}?${query}`, query, lang };
}

/** The query object without the switcher's parameter (when its value is a shipped language). */
export function queryWithoutLang(query: Record<string, unknown>): Record<string, unknown> {
  const v = query[LANG_PARAM];
  if (v === undefined || (typeof v === "string" && !shippedLanguage(v))) return query;
  const { [LANG_PARAM]: _lang, ...rest } = query;
  return rest;
}

/** The shipped language a browser's Accept-Language asks for, remembered per value (every page view asks). */
const negotiateShipped = languageNegotiator(LANGUAGE_TAGS);

/** The page's language: `chosen` (the switcher's, or the signed state's) when shipped, else negotiated. */
export function pageLanguage(request: FastifyRequest, chosen: unknown, campaignDefault?: string): string {
  if (typeof chosen === "string") {
    const shipped = shippedLanguage(chosen);
    if (shipped) return shipped.tag;
  }
  const fallback = (campaignDefault && shippedLanguage(campaignDefault)?.tag) || DEFAULT_LANGUAGE;
  const header = request.headers["accept-language"];
  return negotiateShipped(typeof header === "string" ? header : undefined) ?? fallback;
}

/**
 * Whether the page is shown in an operating system's captive network assistant, a small web view
 * rather than the guest's browser: Apple's (iOS, iPadOS, macOS: WebKit on an Apple device without
 * the "Safari/" product token, or the CaptiveNetworkSupport agent) and Android's CaptivePortalLogin
 * (a WebView: "; wv)"). Windows has none of its own: its connectivity indicator opens the default
 * browser at msftconnecttest.com/redirect, so there the page is in a browser and treated as one.
 * Social providers refuse their logins in web views (Google: "disallowed_useragent").
 */
export function inCaptiveAssistant(userAgent: string): boolean {
  if (/CaptiveNetworkSupport/i.test(userAgent)) return true;
  if (/Android[^)]*; wv\)/.test(userAgent)) return true;
  return /\b(iPhone|iPad|iPod|Macintosh)\b/.test(userAgent) && /AppleWebKit\//.test(userAgent) && !/\bSafari\//.test(userAgent);
}
