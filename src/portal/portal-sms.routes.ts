/** SMS login: ask for a number, text a code, check the code, hand off. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { portalErrors } from "./portal-errors.js";
import { type ConsentChoice, e164, field, packConsent, parseConsent, unpackConsent } from "./portal-forms.js";
import { type LoginContext, completeLogin } from "./portal-login.service.js";
import { renderLogin, renderSmsCode, sendHandoff } from "./portal-render.js";
import type { PortalDeps } from "./portal-deps.js";
import { rememberDevice } from "./returning-guest.js";
import { beginLogin, bodyOf, countLogin, postView, userAgentOf } from "./portal-request.js";
import { sealPageState } from "./portal-state.js";
import { sendLoginCode, verifyLoginCode } from "./sms/sms-login.service.js";
import { SmsSendError } from "../modules/messages/twilio-client.js";

async function textCode(request: FastifyRequest, deps: PortalDeps, ctx: LoginContext, phone: string, consent: ConsentChoice | undefined): Promise<string> {
  await deps.limits.smsSend(request, ctx.location.id);
  try {
    await sendLoginCode(deps.ctx, deps.config, deps.signer, ctx.location, phone, postView(request, ctx).lang);
  } catch (err) {
    if (!(err instanceof SmsSendError)) throw err;
    request.log.warn({ err: err.message }, "portal: SMS not sent");
    throw portalErrors.smsFailed();
  }
  const { v: _v, exp: _exp, ...rest } = ctx.state;
  return sealPageState(deps.signer, { ...rest, phone, ...(consent ? { consent: packConsent(consent) } : {}) });
}

export function smsRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.post("/portal/login/sms", { schema: { hide: true } }, async (request, reply) => {
    const ctx = await beginLogin(request, deps, "sms");
    const view = postView(request, ctx);
    const body = bodyOf(request);
    const raw = field(body, "phone", 32);
    const phone = e164(raw);
    const consent = parseConsent(body, ctx.payload.consent, "sms");
    if (!phone || Object.keys(consent.errors).length > 0) {
      reply.code(400);
      return renderLogin(reply, deps, ctx.payload, String(body.state), ctx.state.gw, view, {
        notice: { key: "notice.checkForm" },
        errors: { ...(phone ? {} : { "sms-phone": "form.mobileInvalid" }), ...consent.errors },
        values: { "sms-phone": raw },
      });
    }
    const state = await textCode(request, deps, ctx, phone, consent.choice);
    return renderSmsCode(reply, deps, ctx.payload, state, ctx.state.gw, phone, view);
  });

  app.post("/portal/login/sms/resend", { schema: { hide: true } }, async (request, reply) => {
    const ctx = await beginLogin(request, deps, "sms");
    const phone = ctx.state.phone;
    if (!phone) throw portalErrors.sessionExpired();
    const state = await textCode(request, deps, ctx, phone, unpackConsent(ctx.state.consent));
    return renderSmsCode(reply, deps, ctx.payload, state, ctx.state.gw, phone, postView(request, ctx), { notice: { key: "notice.newCode" } });
  });

  app.post("/portal/login/sms/verify", { schema: { hide: true } }, (request, reply) => countLogin(deps, "sms", reply, async () => {
    const ctx = await beginLogin(request, deps, "sms");
    const phone = ctx.state.phone;
    if (!phone) throw portalErrors.sessionExpired();
    const body = bodyOf(request);
    const result = await verifyLoginCode(deps.ctx, deps.config, deps.signer, ctx.location.id, phone, field(body, "code", 16));
    if (!result.ok) {
      reply.code(400);
      return renderSmsCode(reply, deps, ctx.payload, String(body.state), ctx.state.gw, phone, postView(request, ctx), { error: result.message });
    }
    const handoff = await completeLogin(deps.ctx, deps.config, ctx, {
      method: "sms",
      identity: phone,
      profile: { phone_number: phone },
      consent: unpackConsent(ctx.state.consent),
      userAgent: userAgentOf(request),
      clientIp: request.ip,
      language: postView(request, ctx).lang,
      onGuest: rememberDevice(reply, deps, ctx.location),
    });
    return sendHandoff(reply, deps, ctx.payload, handoff, postView(request, ctx));
  }));
}
