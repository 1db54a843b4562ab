/**
 * What the portal's routes work with, made once per app by the portal plugin: the app's services
 * context (src/app-deps.ts) and what only the portal keeps (limit counters, signing keys, the terms
 * cache). Nothing of it lives at module level, so two apps in one process share nothing.
 */
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import type { Metrics } from "../metrics.js";
import type { RadiusCtx } from "../radius/radius.repository.js";
import { type PortalRateLimits, createPortalRateLimits } from "./portal-rate-limits.js";
import { PortalSigner } from "./portal-signer.js";
import type { SmsCodeRepository } from "./sms/sms-codes.repository.js";
import { TermsSanitizer } from "./views/terms.js";

/** The app's services context as the portal uses it: the modules', RADIUS's credentials, SMS codes. */
export interface PortalCtx extends RadiusCtx {
  readonly smsCodes: SmsCodeRepository;
}

export interface PortalDeps {
  ctx: PortalCtx;
  config: Readonly<Config>;
  signer: PortalSigner;
  limits: PortalRateLimits;
  terms: TermsSanitizer;
  /** The app's metrics: logins counted by method and result. */
  metrics: Metrics;
}

/** `app` is the portal's context of the app: its config, and its rate-limit plugin for the limits. */
export function createPortalDeps(app: FastifyInstance, ctx: PortalCtx, metrics: Metrics): PortalDeps {
  const { config } = app;
  return {
    ctx,
    config,
    signer: new PortalSigner(config.portalSecret),
    limits: createPortalRateLimits(app, {
      loginPerMinute: config.portalLoginRateLimitPerMinute,
      smsPerMinute: config.portalSmsRateLimitPerMinute,
    }),
    terms: new TermsSanitizer(),
    metrics,
  };
}
