/**
 * `GET /portal/logo/<campaign_filename>/<hash>.<ext>`: a campaign's logo, as its login pages link it
 * (page-payload.ts). The address names the image's SHA-256, so what it answers never changes:
 * browsers keep it for a year, and a changed logo has a new address (the old one answers 404).
 */
import type { FastifyInstance } from "fastify";
import { ReadCache } from "../db/read-cache.js";
import { type Logo, logoFileName, storedLogo } from "../modules/campaigns/campaign-logo.js";
import { parsePayload } from "../modules/campaigns/campaign-payload.js";
import { findLiveCampaignByFilename } from "../modules/campaigns/campaigns.service.js";
import { PORTAL_LOGO_PREFIX } from "../portal-urls.js";
import type { PortalDeps } from "./portal-deps.js";
import { portalErrors } from "./portal-errors.js";

/** Logos kept decoded: at most 200 KiB each, so at most 20 MiB; a phone asks once a year. */
const KEPT_LOGOS = 100;

export function logoRoutes(app: FastifyInstance, deps: PortalDeps): void {
  // Emptied whenever a campaign changes (ReadCache of catalogue rows), so a removed logo stops at once.
  const logos = new ReadCache<string, { logo: Logo | null }>(KEPT_LOGOS, true);

  app.get<{ Params: { filename: string; file: string } }>(`${PORTAL_LOGO_PREFIX}:filename/:file`, { schema: { hide: true } }, async (request, reply) => {
    const { filename, file } = request.params;
    const db = deps.ctx.db;
    const found =
      logos.get(db, filename) ??
      (await logos.load(db, filename, async () => {
        const campaign = await findLiveCampaignByFilename(deps.ctx, filename);
        return campaign ? { logo: storedLogo(parsePayload(campaign.payload).logo) } : undefined;
      }));
    const logo = found?.logo;
    if (!logo || logoFileName(logo) !== file) throw portalErrors.logoNotFound();
    reply.headers({
      "content-type": logo.type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      // Opened on its own, it is an image and nothing else: no script, no plugin, no framing elsewhere.
      "content-security-policy": "default-src 'none'; img-src 'self'; sandbox",
    });
    return logo.bytes;
  });
}
