/** HPE Aruba Networking (ArubaOS, Instant): the browser posts a one-time credential to the controller's login; it asks RADIUS. */
import type { ArubaState } from "../gateway-types.js";
import { type Handoff, postLoginHandoff } from "../handoff.js";
import { isLocalAddress } from "../local-address.js";
import { ARUBA_SECURELOGIN, arubaLoginFields, parseAruba } from "./aruba.js";

export const arubaHandoff: Handoff<ArubaState> = postLoginHandoff<ArubaState>({
  kind: "aruba",
  detects: (q) => q.cmd !== undefined && (q.apmac !== undefined || q.essid !== undefined || q.switchip !== undefined),
  parse: (input) => parseAruba(input.query),
  targetAllowed: (_state, host) => host === ARUBA_SECURELOGIN || isLocalAddress(host),
  fields: (gw, credential, next) => arubaLoginFields(gw, credential, next),
  landing: (gw, redirectUrl) => redirectUrl || gw.url,
});
