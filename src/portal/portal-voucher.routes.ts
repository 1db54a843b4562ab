/**
 * Voucher login: the guest types a printed code. Every try counts against the address's voucher
 * limit before the code is looked up; a refused code shows the form again with the reason.
 */
import type { FastifyInstance } from "fastify";
import { type VoucherRefusal, redeemVoucher } from "../modules/vouchers/vouchers.service.js";
import { field, parseConsent } from "./portal-forms.js";
import { retryableOnPage } from "./portal-errors.js";
import { type Handoff, completeLogin } from "./portal-login.service.js";
import { renderLogin, sendHandoff } from "./portal-render.js";
import type { PortalDeps } from "./portal-deps.js";
import { beginLogin, bodyOf, countLogin, postView, userAgentOf } from "./portal-request.js";

/** The catalogue sentence of each refusal (VOUCHER_REFUSALS holds the English ones RADIUS logs). */
const REFUSAL_KEYS: Record<VoucherRefusal, string> = {
  unknown: "voucher.refused.unknown",
  "other-location": "voucher.refused.otherLocation",
  revoked: "voucher.refused.revoked",
  expired: "voucher.refused.expired",
  "time-used-up": "voucher.refused.timeUsedUp",
  "data-used-up": "voucher.refused.dataUsedUp",
  "devices-used-up": "voucher.refused.devicesUsedUp",
};

export function voucherRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.post("/portal/login/voucher", { schema: { hide: true } }, (request, reply) => countLogin(deps, "voucher", reply, async () => {
    const ctx = await beginLogin(request, deps, "voucher");
    const view = postView(request, ctx);
    const body = bodyOf(request);
    const typed = field(body, "code", 32);
    const values = { "voucher-code": typed };
    const consent = parseConsent(body, ctx.payload.consent, "voucher");
    const again = (errors: Record<string, string>) => {
      reply.code(400);
      return renderLogin(reply, deps, ctx.payload, String(body.state), ctx.state.gw, view, { notice: { key: "notice.checkForm" }, errors, values });
    };
    if (typed === "") return again({ "voucher-code": "form.voucherRequired", ...consent.errors });
    if (Object.keys(consent.errors).length > 0) return again(consent.errors);
    await deps.limits.voucherTry(request);
    const deviceKey = ctx.state.mac ? `mac:${ctx.state.mac}` : `session:${ctx.state.sid}`;
    const redeemed = await redeemVoucher(deps.ctx, { typed, location: ctx.location, deviceKey });
    if (typeof redeemed === "string") {
      request.log.info({ location_id: ctx.location.id, reason: redeemed }, "portal: voucher refused");
      return again({ "voucher-code": REFUSAL_KEYS[redeemed] });
    }
    let handoff: Handoff;
    try {
      handoff = await completeLogin(deps.ctx, deps.config, ctx, {
        method: "voucher",
        // One guest per code: every device of the code is that guest, whose usage is the code's.
        identity: typed.replace(/[\s-]/g, "").toUpperCase(),
        profile: {},
        consent: consent.choice,
        voucher: redeemed,
        userAgent: userAgentOf(request),
        clientIp: request.ip,
        language: view.lang,
      });
    } catch (err) {
      if (!retryableOnPage(err)) throw err;
      reply.code(err.statusCode);
      return renderLogin(reply, deps, ctx.payload, String(body.state), ctx.state.gw, view, { notice: err.portalMsg, values });
    }
    return sendHandoff(reply, deps, ctx.payload, handoff, view);
  }));
}
