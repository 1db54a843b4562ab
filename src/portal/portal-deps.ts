/**
 * What the portal's routes work with, made once per app by the portal plugin: the app's services
 * context (src/app-deps.ts) and what only the portal keeps (limit counters, signing keys, the terms
 * cache). Nothing of it lives at module level, so two apps in one process share nothing.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import { storedSecret } from "../db/service-secrets.js";
import type { Metrics } from "../metrics.js";
import type { RadiusCtx } from "../radius/radius.repository.js";
import { ControllerGrants } from "./controller-grants.js";
import { type PageLookups, createPageLookups } from "./portal-page.service.js";
import { type PortalRateLimits, createPortalRateLimits } from "./portal-rate-limits.js";
import { PortalSigner } from "./portal-signer.js";
import type { SmsCodeRepository } from "./sms/sms-codes.repository.js";
import { TermsSanitizer } from "./views/terms.js";

/** The name of the generated portal key in service_secrets. */
export const PORTAL_SECRET_NAME = "portal-signing-key";

/** The app's services context as the portal uses it: the modules', RADIUS's credentials, SMS codes. */
export interface PortalCtx extends RadiusCtx {
  readonly smsCodes: SmsCodeRepository;
}

/** The portal's context with what only the portal keeps for the services it calls: the controllers' sessions. */
export interface PortalAppCtx extends PortalCtx {
  readonly controllers: ControllerGrants;
}

export interface PortalDeps {
  ctx: PortalAppCtx;
  config: Readonly<Config>;
  signer: PortalSigner;
  limits: PortalRateLimits;
  terms: TermsSanitizer;
  /** The app's metrics: logins counted by method and result. */
  metrics: Metrics;
  /** What login pages' look-ups found, while the catalogue does not change. */
  pages: PageLookups;
  /** Login pages rendered once per campaign payload and notice, with the per-guest parts left open. */
  loginTemplates: LoginTemplates;
}

/** Keyed by the parsed payload object, which lives as long as the page look-up that holds it. */
export type LoginTemplates = WeakMap<object, Map<string, LoginTemplateParts>>;

/** A login page rendered once (portal-render.ts): its bytes, and 0 where the nonce goes, 1 where the state goes, 2 where the switcher's query goes. */
export type LoginTemplateParts = (Buffer | 0 | 1 | 2)[];

/**
 * `app` is the portal's context of the app: its config, and its rate-limit plugin for the limits.
 * The signing key is PORTAL_SECRET, or else one generated once and kept in the database, so that
 * instances on one database and restarts agree on it.
 */
export async function createPortalDeps(app: FastifyInstance, ctx: PortalCtx, metrics: Metrics): Promise<PortalDeps> {
  const { config } = app;
  const secret = config.portalSecret ?? (await storedSecret(ctx.db, PORTAL_SECRET_NAME, () => randomBytes(32).toString("base64url")));
  return {
    ctx: { ...ctx, controllers: new ControllerGrants(app.log, config) },
    config,
    signer: new PortalSigner(secret),
    limits: createPortalRateLimits(app, {
      loginPerMinute: config.portalLoginRateLimitPerMinute,
      smsPerMinute: config.portalSmsRateLimitPerMinute,
      voucherPerMinute: config.portalVoucherTriesPerMinute,
    }),
    terms: new TermsSanitizer(),
    metrics,
    pages: createPageLookups(),
    loginTemplates: new WeakMap(),
  };
}
