/**
 * Meraki click-through (EXCAP). The AP sends the guest with `base_grant_url, user_continue_url,
 * node_mac, client_mac`; after the login the browser goes to
 * `{base_grant_url}?continue_url=...&duration=SECONDS` and Meraki lets the client in.
 */
import { macOrEmpty } from "../../mac-address.js";
import { httpUrlOrEmpty, param } from "../gateway-params.js";
import type { GatewayParse, MerakiState } from "../gateway-types.js";

export function parseMeraki(q: Record<string, unknown>): GatewayParse {
  const grant = httpUrlOrEmpty(param(q, "base_grant_url"));
  const apMac = macOrEmpty(q.node_mac);
  if (!grant) return { kind: "refused", reason: "base_grant_url" };
  if (!apMac) return { kind: "refused", reason: "node_mac" };
  return {
    kind: "arrival",
    arrival: {
      state: { kind: "meraki", grant, cont: httpUrlOrEmpty(param(q, "user_continue_url")) },
      apMac,
      clientMac: macOrEmpty(q.client_mac),
      targetHost: new URL(grant).hostname,
    },
  };
}

/** The grant URL the browser is sent to; `duration` in seconds. */
export function merakiGrantUrl(state: MerakiState, continueUrl: string, durationSeconds: number): string {
  const url = new URL(state.grant);
  if (continueUrl) url.searchParams.set("continue_url", continueUrl);
  url.searchParams.set("duration", String(durationSeconds));
  return url.href;
}
