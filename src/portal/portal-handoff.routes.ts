/** The portal's one script: it submits the hand-off form (views/handoff-page.view.ts) as soon as the page loads. */
import type { FastifyInstance } from "fastify";
import { HANDOFF_SCRIPT_PATH } from "./views/handoff-page.view.js";

const HANDOFF_SCRIPT = `"use strict";
(function () {
  var form = document.getElementById("handoff");
  if (form) form.submit();
})();
`;

export function handoffRoutes(app: FastifyInstance): void {
  app.get(HANDOFF_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.headers({ "content-type": "text/javascript; charset=utf-8", "x-content-type-options": "nosniff", "cache-control": "public, max-age=3600" });
    return HANDOFF_SCRIPT;
  });
}
