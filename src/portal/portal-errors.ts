/**
 * The portal's failures, as AppErrors from one catalogue (rendered by the app's one error
 * handler), and how that handler shows them to a guest: a friendly HTML page when the browser
 * asks for HTML, the API's JSON shape otherwise.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import { type MessageValues, translate, translator } from "../i18n/catalogue.js";
import { pageLanguage } from "./portal-language.js";
import { PORTAL_PREFIX, UNIFI_GUEST_PREFIX } from "../portal-urls.js";
import { newNonce, setPortalHeaders } from "./portal-headers.js";
import { errorPage } from "./views/message-page.view.js";

/**
 * A portal failure: the API's shape carries the English sentence, and the error keeps its
 * catalogue message so that a guest's page shows it in the page's language.
 */
const e = (status: number, key: string, values?: MessageValues, headers?: Record<string, string>) =>
  Object.assign(new AppError(status, { portal: [translate("en", key, values)] }, headers), { portalMsg: { key, values } });

const retryHeader = (seconds: number) => ({ "retry-after": String(seconds) });

export const portalErrors = {
  pageNotFound: () => e(404, "error.pageNotFound"),
  /** A logo address of no live campaign, or of a logo the campaign no longer has (its hash changed). */
  logoNotFound: () => e(404, "error.logoNotFound"),
  gatewayRefused: () => e(400, "error.gatewayRefused"),
  unknownAccessPoint: () => e(403, "error.unknownAccessPoint"),
  sessionExpired: () => e(403, "error.sessionExpired"),
  allowanceSpent: () => e(403, "error.allowanceSpent"),
  notOnWifi: () => e(400, "error.notOnWifi"),
  methodUnavailable: () => e(400, "error.methodUnavailable"),
  rateLimited: (retryAfter: number) => e(429, "error.rateLimited", { seconds: retryAfter }, retryHeader(retryAfter)),
  smsFromNetwork: (retryAfter: number) => e(429, "error.smsFromNetwork", { seconds: retryAfter }, retryHeader(retryAfter)),
  smsAtLocation: (retryAfter: number) => e(429, "error.smsAtLocation", { seconds: retryAfter }, retryHeader(retryAfter)),
  smsBudgetSpent: (retryAfter: number) => e(429, "error.smsBudgetSpent", undefined, retryHeader(retryAfter)),
  providerFailed: (provider: string) => e(502, "error.providerFailed", { provider: `${provider[0].toUpperCase()}${provider.slice(1)}` }),
  /** Marked `retry`: a form login answers it with the login page again, the sentence as its notice. */
  controllerFailed: () => Object.assign(e(502, "error.controllerFailed"), { retry: true as const }),
  controllerMissing: () => e(502, "error.controllerMissing"),
  voucherTries: (retryAfter: number) => e(429, "error.voucherTries", { seconds: retryAfter }, retryHeader(retryAfter)),
  smsFailed: () => e(502, "error.smsFailed"),
  smsTooMany: (minutes: number) => e(429, "error.smsTooMany", { minutes }, retryHeader(minutes * 60)),
  smsTooManyToday: (retryAfter: number) => e(429, "error.smsTooManyToday", undefined, retryHeader(retryAfter)),
  passpointNotOffered: () => e(404, "error.passpointNotOffered"),
  passpointLoginFirst: () => e(403, "error.passpointLoginFirst"),
  passpointVoucher: () => e(403, "error.passpointVoucher"),
};

/** The catalogue message of a portal error (undefined for any other error). */
export function portalMessage(err: unknown): { key: string; values?: MessageValues } | undefined {
  return err instanceof AppError ? (err as { portalMsg?: { key: string; values?: MessageValues } }).portalMsg : undefined;
}

/** Whether `err` is a failure the guest can simply retry from the same page (a controller that did not answer). */
export function retryableOnPage(err: unknown): err is AppError & { retry: true; portalMsg: { key: string; values?: MessageValues } } {
  return err instanceof AppError && (err as { retry?: boolean }).retry === true;
}

/** Whether the app's error handler should answer this request with the portal's HTML page. */
export function wantsPortalHtml(request: FastifyRequest): boolean {
  const portal = request.url.startsWith(PORTAL_PREFIX) || request.url.startsWith(UNIFI_GUEST_PREFIX);
  return portal && (request.headers.accept ?? "").includes("text/html");
}

/**
 * Renders an error for a guest's browser, in the language of the page it came from (the `lang` of
 * the form or address) or the browser's; called by the app's error and not-found handlers.
 */
export function sendPortalError(reply: FastifyReply, err: AppError): string {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, []);
  reply.code(err.statusCode).headers(err.headers).type("text/html; charset=utf-8");
  const request = reply.request;
  const body = request.body && typeof request.body === "object" ? (request.body as Record<string, unknown>) : {};
  const query = request.query && typeof request.query === "object" ? (request.query as Record<string, unknown>) : {};
  const tr = translator(pageLanguage(request, body.lang ?? query.lang));
  const msg = portalMessage(err);
  const sentences =
    err.statusCode >= 500 && err.statusCode !== 502
      ? [tr.t("error.internal")]
      : msg
        ? [tr.t(msg.key, msg.values)]
        : err.statusCode === 404 && !err.messages.portal
          ? [tr.t("error.noSuchPage")]
          : Object.values(err.messages).flat();
  return errorPage({ tr, nonce, statusCode: err.statusCode, sentences });
}
