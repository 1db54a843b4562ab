/**
 * The portal's failures, as AppErrors from one catalogue (rendered by the app's one error
 * handler), and how that handler shows them to a guest: a friendly HTML page when the browser
 * asks for HTML, the API's JSON shape otherwise.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import { PORTAL_PREFIX, UNIFI_GUEST_PREFIX } from "../portal-urls.js";
import { newNonce, setPortalHeaders } from "./portal-headers.js";
import { errorPage } from "./views/message-page.view.js";

const e = (status: number, sentence: string, headers?: Record<string, string>) =>
  new AppError(status, { portal: [sentence] }, headers);

const retryHeader = (seconds: number) => ({ "retry-after": String(seconds) });

export const portalErrors = {
  pageNotFound: () => e(404, "This WiFi login page does not exist. Please check the address or ask a member of staff."),
  /** A logo address of no live campaign, or of a logo the campaign no longer has (its hash changed). */
  logoNotFound: () => e(404, "This logo does not exist. The login page that links it may be out of date: reload it."),
  gatewayRefused: () =>
    e(400, "Your WiFi access point sent an incomplete or invalid request. Please disconnect and reconnect to the WiFi."),
  unknownAccessPoint: () =>
    e(403, "This WiFi access point is not registered for this login page. Please ask a member of staff."),
  sessionExpired: () => e(403, "This login page has expired. Please go back, reload the page and try again."),
  allowanceSpent: () => e(403, "Your data allowance at this location for today is used up. Please try again tomorrow."),
  notOnWifi: () => e(400, "This is a preview of the login page. Connect to the WiFi to log in."),
  methodUnavailable: () => e(400, "This login method is not available here. Please choose another one."),
  rateLimited: (retryAfter: number) =>
    e(429, `Too many login attempts from this network. Please try again in ${retryAfter} seconds.`, retryHeader(retryAfter)),
  smsFromNetwork: (retryAfter: number) =>
    e(
      429,
      `Too many text messages were requested from this network just now. Please try again in ${retryAfter} seconds, or choose another login method.`,
      retryHeader(retryAfter),
    ),
  smsAtLocation: (retryAfter: number) =>
    e(
      429,
      `Too many text messages were requested at this location just now. Please try again in ${retryAfter} seconds, or choose another login method.`,
      retryHeader(retryAfter),
    ),
  smsBudgetSpent: (retryAfter: number) =>
    e(
      429,
      "Text-message login is not available at this location for the rest of today. Please choose another login method.",
      retryHeader(retryAfter),
    ),
  providerFailed: (provider: string) =>
    e(502, `We could not complete the login with ${provider[0].toUpperCase()}${provider.slice(1)}. Please try again or choose another method.`),
  /** Marked `retry`: a form login answers it with the login page again, the sentence as its notice. */
  controllerFailed: () =>
    Object.assign(e(502, "We could not let you onto the WiFi just now: the network did not answer in time. Please try again in a moment."), {
      retry: true as const,
    }),
  controllerMissing: () =>
    e(502, "This WiFi cannot let guests in yet: it is not fully set up. Please ask a member of staff."),
  voucherTries: (retryAfter: number) =>
    e(429, `Too many voucher codes were tried from this network. Please wait ${retryAfter} seconds and try again.`, retryHeader(retryAfter)),
  smsFailed: () => e(502, "We could not send the text message. Please check the number or choose another login method."),
  smsTooMany: (minutes: number) =>
    e(429, `Several codes were already sent to this number. Please use the latest one, or try again in ${minutes} minutes.`, retryHeader(minutes * 60)),
  smsTooManyToday: (retryAfter: number) =>
    e(
      429,
      "Several codes were already sent to this number today. Please use the latest one, or choose another login method.",
      retryHeader(retryAfter),
    ),
};

/** Whether `err` is a failure the guest can simply retry from the same page (a controller that did not answer). */
export function retryableOnPage(err: unknown): err is AppError & { retry: true } {
  return err instanceof AppError && (err as { retry?: boolean }).retry === true;
}

/** Whether the app's error handler should answer this request with the portal's HTML page. */
export function wantsPortalHtml(request: FastifyRequest): boolean {
  const portal = request.url.startsWith(PORTAL_PREFIX) || request.url.startsWith(UNIFI_GUEST_PREFIX);
  return portal && (request.headers.accept ?? "").includes("text/html");
}

/** Renders an error for a guest's browser; called by the app's error and not-found handlers. */
export function sendPortalError(reply: FastifyReply, err: AppError): string {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, []);
  reply.code(err.statusCode).headers(err.headers).type("text/html; charset=utf-8");
  const sentences =
    err.statusCode >= 500 && err.statusCode !== 502
      ? ["Something went wrong on our side. Please try again in a moment."]
      : err.statusCode === 404 && !err.messages.portal
        ? ["This page does not exist."]
        : Object.values(err.messages).flat();
  return errorPage({ nonce, statusCode: err.statusCode, sentences });
}
