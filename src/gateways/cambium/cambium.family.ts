/** Cambium cnPilot / cnMaestro: the browser posts a one-time credential to the AP's hotspot login; the AP asks RADIUS. */
import type { CambiumState } from "../gateway-types.js";
import { type Handoff, postLoginHandoff } from "../handoff.js";
import { isLocalAddress } from "../local-address.js";
import { cambiumLoginFields, parseCambium } from "./cambium.js";

export const cambiumHandoff: Handoff<CambiumState> = postLoginHandoff<CambiumState>({
  kind: "cambium",
  detects: (q) => q.ga_srvr !== undefined,
  parse: (input) => parseCambium(input.query, input.rawUrls[0] ?? ""),
  targetAllowed: (_state, host) => isLocalAddress(host),
  fields: (gw, credential) => cambiumLoginFields(gw, credential),
  // The AP sends the guest to ga_orig_url itself.
  landing: (gw) => gw.orig,
});
