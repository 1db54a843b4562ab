/** The form logins: custom form, e-mail, click-through. Thin: parse, call the login service, hand off. */
import type { FastifyInstance } from "fastify";
import { type FormResult, parseClickThrough, parseConsent, parseCustomForm, parseEmailForm } from "./portal-forms.js";
import { retryableOnPage } from "./portal-errors.js";
import { type Handoff, type LoginContext, completeLogin } from "./portal-login.service.js";
import { renderLogin, sendHandoff } from "./portal-render.js";
import type { PortalDeps } from "./portal-deps.js";
import { rememberDevice } from "./returning-guest.js";
import { beginLogin, bodyOf, countLogin, postView, userAgentOf } from "./portal-request.js";

const PREFIX = { custom: "custom", email: "email", clickthrough: "ct" } as const;

const FORMS: Record<"custom" | "email" | "clickthrough", (body: Record<string, unknown>, ctx: LoginContext) => FormResult> = {
  custom: (body, ctx) => parseCustomForm(body, ctx.payload.custom_fields),
  email: (body) => parseEmailForm(body),
  clickthrough: (body) => parseClickThrough(body),
};

export function loginRoutes(app: FastifyInstance, deps: PortalDeps): void {
  for (const method of Object.keys(FORMS) as (keyof typeof FORMS)[]) {
    app.post(`/portal/login/${method}`, { schema: { hide: true } }, (request, reply) => countLogin(deps, method, reply, async () => {
      const ctx = await beginLogin(request, deps, method);
      const view = postView(request, ctx);
      const body = bodyOf(request);
      const form = FORMS[method](body, ctx);
      const consent = parseConsent(body, ctx.payload.consent, PREFIX[method], method === "clickthrough" || ctx.payload.consent.terms_required);
      Object.assign(form.errors, consent.errors);
      if (Object.keys(form.errors).length > 0) {
        reply.code(400);
        return renderLogin(reply, deps, ctx.payload, String(body.state), ctx.state.gw, view, {
          notice: { key: "notice.checkForm" },
          errors: form.errors,
          values: form.values,
        });
      }
      let handoff: Handoff;
      try {
        handoff = await completeLogin(deps.ctx, deps.config, ctx, {
          method,
          identity: form.identity,
          profile: form.profile,
          consent: consent.choice,
          userAgent: userAgentOf(request),
          clientIp: request.ip,
          language: view.lang,
          onGuest: rememberDevice(reply, deps, ctx.location),
        });
      } catch (err) {
        // The controller did not let the guest in: the same form again, to retry in one tap.
        if (!retryableOnPage(err)) throw err;
        reply.code(err.statusCode);
        return renderLogin(reply, deps, ctx.payload, String(body.state), ctx.state.gw, view, { notice: err.portalMsg, values: form.values });
      }
      return sendHandoff(reply, deps, ctx.payload, handoff, view);
    }));
  }
}
