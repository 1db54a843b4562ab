/**
 * RUCKUS: ZoneDirector and Unleashed (the browser posts a one-time credential to the controller's
 * `:9997/login`), and SmartZone and RUCKUS One (the service hands the credential to the location's
 * controller through its northbound portal interface). Either way the controller asks RADIUS.
 */
import type { ControllerAccess } from "../../modules/controllers/controllers.service.js";
import type { RuckusNbiState, RuckusState } from "../gateway-types.js";
import { type Handoff, onlineOrRedirect, postLoginHandoff } from "../handoff.js";
import { isLocalAddress } from "../local-address.js";
import { parseRuckusNbi } from "./ruckus-nbi.js";
import { parseRuckus, ruckusLoginFields } from "./ruckus.js";

export const ruckusHandoff: Handoff<RuckusState> = postLoginHandoff<RuckusState>({
  kind: "ruckus",
  // SmartZone's redirect carries sip too: nbiIP (asked first, ruckusNbiHandoff) tells it from a ZoneDirector's.
  detects: (q) => q.sip !== undefined,
  parse: (input) => parseRuckus(input.query),
  targetAllowed: (_state, host) => isLocalAddress(host),
  fields: (gw, credential, next) => ruckusLoginFields(gw, credential, next),
  landing: (gw, redirectUrl) => redirectUrl || gw.url,
});

export const ruckusNbiHandoff: Handoff<RuckusNbiState, ControllerAccess> = {
  kind: "ruckus-nbi",
  onlyFrom: "ruckus",
  detects: (q) => q.nbiIP !== undefined,
  parse: (input) => parseRuckusNbi(input.query),
  // The call goes to the location's own controller, nothing to the query's hosts.
  targetAllowed: () => true,
  formTargets: () => [],
  credential: true,
  // A location without a controller is refused before anything is stored.
  prepare: (step) => step.app.controllers.ruckusController(step.app, step.location),
  async complete(step, access) {
    if (!step.credential) throw new Error("ruckus-nbi: no credential issued");
    // The controller asks RADIUS with the credential stored with the login, then says whether the guest is in.
    await step.app.controllers.ruckusLogin(access, step.location, step.gw, step.credential);
    // The guest's address, from the redirect's uip: the RFC 8908 API knows the device is in before
    // the controller's first accounting packet arrives.
    const ip = await step.app.controllers.ruckusDecrypt(step.app, step.location, step.gw, "ip", access);
    if (ip) await step.remember((await step.grant()).grantSeconds, ip);
    return onlineOrRedirect(step.redirectUrl);
  },
  // SmartZone and RUCKUS One encrypt the guest's MAC: their controller decrypts it.
  revealClientMac: (app, location, state) => app.controllers.ruckusDecrypt(app, location, state, "mac"),
};
