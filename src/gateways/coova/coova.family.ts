/** CoovaChilli (UAM): the hand-off to the gateway's `/logon` with a one-time credential; the gateway then asks RADIUS. */
import type { CoovaState } from "../gateway-types.js";
import type { Handoff } from "../handoff.js";
import { isLocalAddress } from "../local-address.js";
import { coovaLogonUrl, parseCoova } from "./coova.js";

export const coovaHandoff: Handoff<CoovaState> = {
  kind: "coova",
  detects: (q) => q.uamip !== undefined || q.challenge !== undefined,
  parse: (input) => parseCoova(input.query, input.rawUrls, input.coovaUamSecret),
  // The gateway's own LAN address (private or loopback).
  targetAllowed: (_state, host) => isLocalAddress(host),
  formTargets: (gw) => [`http://${gw.uamip.includes(":") ? `[${gw.uamip}]` : gw.uamip}:${gw.uamport}/`],
  credential: true,
  async complete(step) {
    if (!step.credential) throw new Error("coova: no credential issued");
    return { kind: "redirect", url: coovaLogonUrl(step.gw, step.credential, step.config.coovaUamSecret, step.redirectUrl || step.gw.userurl) };
  },
};
