/**
 * openNDS FAS (on OpenWrt): levels 1 and 2 send the browser to the router's authdir with a token;
 * level 3 queues the grant for the router's authmon. The redirect is read by the portal's openNDS
 * service (src/portal/opennds/), which needs the device's secret to decrypt it.
 */
import { openNdsHandoff } from "../../portal/opennds/opennds.service.js";
import type { OpenNdsState } from "../gateway-types.js";
import type { Handoff } from "../handoff.js";
import { isLocalAddress } from "../local-address.js";

export const openNdsHandoffModule: Handoff<OpenNdsState> = {
  kind: "opennds",
  targetAllowed: (_state, host) => isLocalAddress(host),
  // openNDS then redirects the guest to redir (redirect_url or originurl): checked against form-action too.
  formTargets: (gw) => (gw.level !== 3 ? [`http://${gw.address}/`, gw.originurl] : []),
  credential: false,
  async complete(step) {
    const { gw } = step;
    const out = await openNdsHandoff(step.app, step.config, {
      gw,
      location: step.location,
      deviceId: step.deviceId,
      guestId: step.guestId,
      voucher: step.voucher,
      redir: step.redirectUrl || gw.originurl,
    });
    // No RADIUS session tells the RFC 8908 API this guest is online: the grant does.
    await step.remember(out.seconds);
    return "url" in out ? { kind: "redirect", url: out.url } : { kind: "connected", continueUrl: step.redirectUrl || gw.originurl };
  },
};
