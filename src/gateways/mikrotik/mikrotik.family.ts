/** MikroTik RouterOS HotSpot: the browser posts a one-time credential to the router's `link-login-only`; the router asks RADIUS. */
import type { MikrotikState } from "../gateway-types.js";
import { type Handoff, postLoginHandoff } from "../handoff.js";
import { isLocalAddress } from "../local-address.js";
import { mikrotikLoginFields, parseMikrotik } from "./mikrotik.js";

export const mikrotikHandoff: Handoff<MikrotikState> = postLoginHandoff<MikrotikState>({
  kind: "mikrotik",
  detects: (q) => q["link-login-only"] !== undefined,
  parse: (input) => parseMikrotik(input.query),
  targetAllowed: (_state, host) => isLocalAddress(host),
  fields: (gw, credential, next) => mikrotikLoginFields(gw, credential, next || gw.orig),
  landing: (gw, redirectUrl) => redirectUrl || gw.orig,
});
