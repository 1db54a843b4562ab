/** TP-Link Omada (external portal): the service asks the location's controller to let the client in. */
import type { OmadaState } from "../gateway-types.js";
import { type Handoff, onlineOrRedirect } from "../handoff.js";
import { omadaAuthorize, parseOmada } from "./omada.js";

export const omadaHandoff: Handoff<OmadaState, number> = {
  kind: "omada",
  onlyFrom: "omada",
  detects: (q) => q.clientMac !== undefined,
  parse: (input) => parseOmada(input.query),
  targetAllowed: () => true,
  formTargets: () => [],
  credential: false,
  // Let in before the login is recorded (Omada's extPortal/auth takes the time only).
  async prepare(step) {
    const seconds = (await step.grant()).grantSeconds;
    return step.app.controllers.letIn(step.app, step.location, "omada", seconds, (c) =>
      omadaAuthorize({ access: c.access, session: c.omada, timeoutMs: c.timeoutMs, rule: c.rule }, step.gw, step.clientMac, seconds),
    );
  },
  async complete(step, seconds) {
    await step.remember(seconds);
    return onlineOrRedirect(step.redirectUrl);
  },
};
