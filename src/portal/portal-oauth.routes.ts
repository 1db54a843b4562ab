/**
 * Social logins: the button POSTs here (CSRF-checked like every login form), we send the browser
 * to the provider with a random `state` and a PKCE challenge, both kept in an HttpOnly signed
 * cookie bound to the guest's session; the provider sends the browser back to the callback.
 */
import type { FastifyInstance } from "fastify";
import { param } from "../gateways/gateway-params.js";
import { authorizationRequest, callbackUrl, exchangeCode, fetchProfile } from "./oauth/oauth-client.js";
import { PROVIDER_LABELS, isSocialProvider } from "./oauth/oauth-providers.js";
import { portalErrors } from "./portal-errors.js";
import { packConsent, parseConsent, unpackConsent } from "./portal-forms.js";
import { newNonce, setPortalHeaders } from "./portal-headers.js";
import { completeLogin, loadLoginContext } from "./portal-login.service.js";
import { renderLogin, sendHandoff } from "./portal-render.js";
import type { PortalDeps } from "./portal-deps.js";
import { rememberDevice } from "./returning-guest.js";
import { beginLogin, bodyOf, countLogin, postView, userAgentOf, verifiedState } from "./portal-request.js";
import { safeEqual } from "./portal-signer.js";
import { setOAuthCookie, takeOAuthCookie } from "./portal-state.js";

export function oauthRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.post<{ Params: { provider: string } }>("/portal/login/oauth/:provider", { schema: { hide: true } }, async (request, reply) => {
    const provider = request.params.provider;
    if (!isSocialProvider(provider)) throw portalErrors.pageNotFound();
    const ctx = await beginLogin(request, deps, provider);
    const view = postView(request, ctx);
    const body = bodyOf(request);
    const consent = parseConsent(body, ctx.payload.consent, "social");
    if (Object.keys(consent.errors).length > 0) {
      reply.code(400);
      return renderLogin(reply, deps, ctx.payload, String(body.state), ctx.state.gw, view, { notice: { key: "notice.checkForm" }, errors: consent.errors });
    }
    const cfg = deps.config.oauth[provider]!;
    const auth = authorizationRequest(provider, cfg, callbackUrl(deps.config.publicUrl, provider));
    setOAuthCookie(reply, deps.signer, deps.config.publicUrl, {
      p: provider,
      n: auth.nonce,
      v: auth.verifier,
      s: String(body.state),
      c: packConsent(consent.choice),
    });
    setPortalHeaders(reply, newNonce(), []);
    return reply.redirect(auth.url, 303);
  });

  app.get<{ Params: { provider: string } }>("/portal/oauth/callback/:provider", { schema: { hide: true } }, async (request, reply) => {
    const provider = request.params.provider;
    if (!isSocialProvider(provider)) throw portalErrors.pageNotFound();
    return countLogin(deps, provider, reply, async (invalid) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const pending = takeOAuthCookie(request, reply, deps.signer);
      // The provider must answer the request this browser started, for this provider.
      if (!pending || pending.p !== provider || !safeEqual(param(query, "state", 256), pending.n)) throw portalErrors.sessionExpired();
      const state = await verifiedState(request, deps, pending.s);
      const ctx = await loadLoginContext(deps.ctx, deps.config, state, provider);
      const view = postView(request, ctx);
      const code = param(query, "code", 2048);
      if (param(query, "error", 256) || !code) {
        // The guest cancelled at the provider (or it answered nothing usable): asked to try again.
        invalid();
        return renderLogin(reply, deps, ctx.payload, pending.s, state.gw, view, {
          notice: { key: "notice.oauthIncomplete", values: { provider: PROVIDER_LABELS[provider] } },
        });
      }
      const cfg = deps.config.oauth[provider]!;
      const accessToken = await exchangeCode(provider, cfg, code, callbackUrl(deps.config.publicUrl, provider), pending.v);
      const social = await fetchProfile(provider, cfg, accessToken);
      const handoff = await completeLogin(deps.ctx, deps.config, ctx, {
        method: provider,
        identity: social.id,
        profile: social.profile,
        consent: unpackConsent(pending.c),
        userAgent: userAgentOf(request),
        clientIp: request.ip,
        language: view.lang,
        onGuest: rememberDevice(reply, deps, ctx.location),
    });
    return sendHandoff(reply, deps, ctx.payload, handoff, view);
    });
  });
}
