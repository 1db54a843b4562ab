/**
 * The API reference page, /docs: swagger-ui's page and files, served by @fastify/swagger-ui in an
 * app of its own that is built on the first request for it. Loading swagger-ui with @fastify/static,
 * glob, yaml and send, and registering a route per file, was a third of the service's start (issue
 * 22: a restart within 1.5 s), for a page that few open. Its answers pass through unchanged: the
 * same page, files, headers and Content-Security-Policy.
 */
import Fastify, { type FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export const DOCS_PREFIX = "/docs";

// The reference page runs swagger-ui's own scripts and nothing else (no inline script: its csp.json
// lists none), talks only to this host, and is framed by nobody (clickjacking "Try it out" with a
// visitor's identifier). No upgrade-insecure-requests: plain-HTTP installs use it too.
const DOCS_CSP =
  "default-src 'self'; base-uri 'none'; connect-src 'self'; font-src 'self' data:; form-action 'self'; frame-ancestors 'none'; " +
  "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'";

async function buildDocsApp(api: FastifyInstance): Promise<FastifyInstance> {
  const { default: swaggerUi } = await import("@fastify/swagger-ui");
  const docs = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  // swagger-ui reads the document from `swagger()` of the plugin named @fastify/swagger: here, the API app's.
  await docs.register(
    fp(
      async (instance) => {
        instance.decorate("swagger", ((opts?: { yaml?: boolean }) => api.swagger(opts as { yaml: true })) as FastifyInstance["swagger"]);
      },
      { name: "@fastify/swagger" },
    ),
  );
  await docs.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: DOCS_CSP,
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.headers({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" });
        done();
      },
    },
  });
  await docs.ready();
  return docs;
}

/** Headers of the inner answer that the outer reply sets itself. */
const HOP_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date"]);

/** GET (and so HEAD) /docs and everything under it, answered by the reference page's app, built once on first use. */
export function registerDocsPage(app: FastifyInstance): void {
  let docs: Promise<FastifyInstance> | undefined;
  const handler = async (request: { url: string; headers: Record<string, string | string[] | undefined> }, reply: import("fastify").FastifyReply) => {
    docs ??= buildDocsApp(app).catch((err) => {
      docs = undefined;
      throw err;
    });
    const res = await (await docs).inject({ method: "GET", url: request.url, headers: request.headers });
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    }
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  app.get(DOCS_PREFIX, { schema: { hide: true } }, handler);
  app.get(`${DOCS_PREFIX}/*`, { schema: { hide: true } }, handler);
  app.addHook("onClose", async () => {
    const built = docs;
    docs = undefined;
    if (built) await (await built.catch(() => undefined))?.close();
  });
}
