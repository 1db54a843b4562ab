/** Ubiquiti UniFi (external portal): the service asks the location's controller to let the client's MAC in. */
import type { Ctx } from "../../modules/context.js";
import type { LocationRow } from "../../modules/locations/locations.repository.js";
import { type ControllerGrants, kbpsOf, megabytesOf } from "../../portal/controller-grants.js";
import type { UnifiState } from "../gateway-types.js";
import type { Grant } from "../grant-policy.js";
import { type Handoff, onlineOrRedirect } from "../handoff.js";
import { unifiAuthorizeGuest } from "./unifi.js";

/** authorize-guest with the grant in UniFi's units (minutes, kbit/s, MB); answers the seconds granted. */
export function unifiGrant(controllers: ControllerGrants, app: Ctx, location: LocationRow, clientMac: string, gw: UnifiState, grant: Grant): Promise<number> {
  const seconds = grant.grantSeconds;
  return controllers.letIn(app, location, "unifi", seconds, (c) =>
    unifiAuthorizeGuest(
      { access: c.access, session: c.unifi, timeoutMs: c.timeoutMs, rule: c.rule },
      {
        mac: clientMac,
        apMac: gw.ap,
        minutes: Math.ceil(seconds / 60),
        up: kbpsOf(grant.upBytesPerSecond),
        down: kbpsOf(grant.downBytesPerSecond),
        bytes: megabytesOf(grant.remainingBytes ?? 0),
      },
    ),
  );
}

export const unifiHandoff: Handoff<UnifiState, number> = {
  kind: "unifi",
  onlyFrom: "unifi",
  // The redirect arrives at its own route (/guest/s/<site>/, parseUnifi); the grant goes to the location's controller.
  targetAllowed: () => true,
  formTargets: () => [],
  credential: false,
  // Let in before the login is recorded: a guest who retries after a controller failure is not counted twice.
  prepare: async (step) => unifiGrant(step.app.controllers, step.app, step.location, step.clientMac, step.gw, await step.grant()),
  async complete(step, seconds) {
    await step.remember(seconds);
    return onlineOrRedirect(step.redirectUrl);
  },
};
