/**
 * GET /metrics: the app's Prometheus metrics (src/metrics.ts). With METRICS_TOKEN set, only a
 * scraper that sends `Authorization: Bearer <token>` gets them (401 otherwise). Without it, only a
 * client on this machine does (403 otherwise): the socket's own address must be loopback, whatever
 * X-Forwarded-For says and whatever TRUST_PROXY trusts, and a request a proxy forwarded (it carries
 * X-Forwarded-For, Forwarded or X-Real-IP) is not local even though the proxy's socket is.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { Metrics } from "../metrics.js";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Equal texts, compared in a time that says nothing about where they differ (or their lengths). */
function sameToken(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith("::ffff:") ? address.slice(7) : address;
  return a === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

function isLocalClient(request: FastifyRequest): boolean {
  return isLoopback(request.socket.remoteAddress) && !FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined);
}

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? undefined : digest(token);
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const header = request.headers.authorization ?? "";
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m || !sameToken(m[1], expected)) {
        throw new AppError(401, { authorization: ["The metrics token is missing or wrong. Send Authorization: Bearer <METRICS_TOKEN>."] }, { "www-authenticate": 'Bearer realm="metrics"' });
      }
    } else if (!isLocalClient(request)) {
      throw new AppError(403, { request: ["The metrics answer only clients on this machine. Set METRICS_TOKEN to scrape them from elsewhere."] });
    }
    const { contentType, body } = await metrics.render();
    reply.header("cache-control", "no-store").type(contentType);
    return body;
  });
}
